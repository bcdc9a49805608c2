package einvoice.validator;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Worker processes of one kind ({@link Worker}), warm and interchangeable: the service takes one for
 * a job and gives it back after. A worker that was killed (time limit, cancel) or died is replaced;
 * one that has run {@code recycleAfter} jobs is retired, and its successor starts warming when it
 * takes its last job, so a recycled worker never makes a caller wait for a warm-up.
 *
 * <p>The pool holds as many workers as the lanes of its kind have permits together ({@link
 * Validations}), so a job holding a permit finds a warm worker unless one is being replaced.
 */
final class WorkerPool {
  enum Kind {
    VALIDATE,
    RENDER
  }

  /** A replacement that failed to start is tried again after this; a failing worker must not spin. */
  private static final long RETRY_MILLIS = 5_000;

  private final Kind kind;
  private final int size;
  private final int recycleAfter;
  private final List<String> command;
  private final BlockingQueue<Child> idle = new LinkedBlockingQueue<>();
  /** Every worker process alive now, idle or busy. */
  private final Set<Child> alive = ConcurrentHashMap.newKeySet();
  private final AtomicLong started = new AtomicLong();
  /** Workers started and not ready yet: until none is, a job may wait for one to warm up (see start()). */
  private final AtomicInteger warming = new AtomicInteger();
  private final AtomicLong retired = new AtomicLong();
  private volatile String ready = "{}";

  /** One worker process and the pipes to it. */
  static final class Child {
    private final Process process;
    private final DataOutputStream jobs;
    private final DataInputStream answers;
    private int jobsTaken;
    private volatile boolean killed;

    private Child(Process process) {
      this.process = process;
      this.jobs = new DataOutputStream(new BufferedOutputStream(process.getOutputStream()));
      this.answers = new DataInputStream(new BufferedInputStream(process.getInputStream()));
    }

    /** The job's answer; an IOException when the process ended first (killed, or died). */
    Answer call(Job job) throws IOException {
      job.write(jobs);
      return Answer.read(answers);
    }

    /** Ends the process at once, whatever it is doing. */
    void kill() {
      killed = true;
      process.destroyForcibly();
    }

    boolean killed() {
      return killed;
    }

    long pid() {
      return process.pid();
    }

    /** Returns once the process is gone (reaped): its CPU and memory are free. */
    void awaitGone() {
      process.onExit().join();
    }
  }

  WorkerPool(Kind kind, int size, int recycleAfter, List<String> javaCommand) {
    this.kind = kind;
    this.size = size;
    this.recycleAfter = Math.max(1, recycleAfter);
    this.command = new ArrayList<>(javaCommand);
    this.command.add(kind.name().toLowerCase(java.util.Locale.ROOT));
    this.warm = new CountDownLatch(size > 0 ? 1 : 0);
  }

  private final CountDownLatch warm;
  private final List<Exception> startFailures = new ArrayList<>();

  /**
   * Starts the first worker, which {@link #awaitWarm()} waits for; the others warm one after another
   * once it is ready. So a start, and a restart after a crash, answers as soon as one worker of each
   * kind is warm, and the warm-ups do not all compete for the cores at once (seven at once took a
   * loaded two-core machine four minutes); a job meanwhile waits for a worker within its time limit.
   */
  void start() {
    if (size == 0) {
      return;
    }
    inBackground(() -> {
      try {
        idle.add(launch());
      } catch (Exception e) {
        synchronized (startFailures) {
          startFailures.add(e);
        }
        return;
      } finally {
        warm.countDown();
      }
      for (int i = 1; i < size; i++) {
        launchUntilOneStarts();
      }
    });
  }

  /** Returns when the first worker {@link #start()} began is warm; if it failed to warm up, the service's start fails. */
  void awaitWarm() throws Exception {
    warm.await();
    synchronized (startFailures) {
      if (!startFailures.isEmpty()) {
        stop();
        throw startFailures.get(0);
      }
    }
  }

  /**
   * A warm worker within {@code timeoutMillis}, or null. Its last job before retirement starts its
   * successor's warm-up.
   */
  Child take(long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (true) {
      Child child = idle.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (child == null) {
        return null;
      }
      if (!child.process.isAlive()) {
        // Died while idle (killed from outside, say): nobody's job, so replaced and not counted.
        forget(child);
        replace();
        continue;
      }
      child.jobsTaken++;
      if (child.jobsTaken == recycleAfter) {
        replace();
      }
      return child;
    }
  }

  /**
   * A worker back from a job: kept for the next, retired after its last, or (killed or dead) waited
   * for until its process is gone and replaced. Returns only then, so whatever its job held is free
   * when the caller gives back the job's permit.
   */
  void giveBack(Child child) {
    if (child.killed() || !child.process.isAlive()) {
      child.kill();
      child.awaitGone();
      forget(child);
      if (child.jobsTaken < recycleAfter) {
        replace();
      }
    } else if (child.jobsTaken >= recycleAfter) {
      retire(child);
    } else {
      idle.add(child);
    }
  }

  /** The pool as the health answer shows it. */
  Json health(Json json) {
    json.begin('{').key("workers").value(size).key("idle").value(idle.size()).key("warming").value(warming.get()).key("started").value(started.get())
        .key("retired").value(retired.get()).key("recycle_after").value(recycleAfter).key("pids").begin('[');
    for (Child child : alive) {
      json.value(child.pid());
    }
    return json.end(']').end('}');
  }

  /** The first worker's ready message: for validations, the rule set it runs. */
  String ready() {
    return ready;
  }

  Kind kind() {
    return kind;
  }

  /** Ends every worker (the service is stopping). */
  void stop() {
    alive.forEach(Child::kill);
  }

  /** Its stdin closed: it ends when it has read that, which is at once, as it is idle. */
  private void retire(Child child) {
    retired.incrementAndGet();
    forget(child);
    try {
      child.jobs.close();
    } catch (IOException e) {
      child.kill();
    }
  }

  private void forget(Child child) {
    alive.remove(child);
  }

  /** A new worker warming in the background, added to the idle ones when it is ready. */
  private void replace() {
    inBackground(this::launchUntilOneStarts);
  }

  /** Starts a worker and adds it to the idle ones when it is ready; tried again until one starts. */
  private void launchUntilOneStarts() {
    while (true) {
      try {
        idle.add(launch());
        return;
      } catch (Exception e) {
        System.err.println("peppol-validator: a " + kind + " worker failed to start (trying again in " + RETRY_MILLIS + " ms): " + e.getMessage());
        try {
          Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  private static void inBackground(Runnable work) {
    Thread thread = new Thread(work, "worker-start");
    thread.setDaemon(true);
    thread.start();
  }

  /** Starts a worker and waits for its ready message (after its warm-up). */
  private Child launch() throws IOException {
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Child child = new Child(process);
    alive.add(child);
    started.incrementAndGet();
    warming.incrementAndGet();
    try {
      ready = child.answers.readUTF();
      return child;
    } catch (IOException e) {
      child.kill();
      child.awaitGone();
      forget(child);
      throw new IOException("the " + kind.name().toLowerCase(java.util.Locale.ROOT) + " worker ended before it was ready (exit "
          + process.exitValue() + ")", e);
    } finally {
      warming.decrementAndGet();
    }
  }
}

package einvoice.validator;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs jobs within bounds: each lane has its own permits, so public validations can never hold the
 * ones sends need; each job has a time limit; and a caller that gives up can cancel its job by id.
 *
 * <p>A job runs in a worker process ({@link WorkerPool}), never in this one: past its time limit, or
 * cancelled, the worker is killed, and the job's permit comes back once the process is gone (reaped).
 * The schematron engine and the stylesheets do not look at interrupts; a killed process needs no
 * cooperation, and leaves nothing behind that the next job could find.
 */
final class Validations {
  enum Lane {
    /** The send workflow's validating step: documents this service built and bounded. */
    SEND(WorkerPool.Kind.VALIDATE),
    /** Authenticated requests from outside: UBL posted to be sent, validation without sending. */
    INTERACTIVE(WorkerPool.Kind.VALIDATE),
    /** The anonymous public validator: its traffic never takes a paying client's permit. */
    PUBLIC(WorkerPool.Kind.VALIDATE),
    /** Documents received (by AS4, or posted to the sandbox): written by others, so they never take a send's permit. */
    RECEIVE(WorkerPool.Kind.VALIDATE),
    /**
     * Renderings a delivery needs (the sandbox email's PDF, an attached PDF): a PDF costs several
     * validations' CPU, so they wait for permits of their own rather than hold the ones every send's
     * validation needs.
     */
    RENDER(WorkerPool.Kind.RENDER),
    /** Renderings people ask for (the API's /pdf and /html): never a delivery's permit, nor a validation's. */
    VIEW(WorkerPool.Kind.RENDER);

    /** The kind of job the lane is for: its permits size that kind's pool of workers. */
    final WorkerPool.Kind kind;

    Lane(WorkerPool.Kind kind) {
      this.kind = kind;
    }

    /** The lane a request names (`send`, `interactive`, `public`, `receive`, `render`, `view`); none is `send`. */
    static Lane named(String name) {
      if (name == null) {
        return SEND;
      }
      for (Lane lane : values()) {
        if (lane.name().equalsIgnoreCase(name)) {
          return lane;
        }
      }
      throw new IllegalArgumentException("unknown lane " + name + "; use send, interactive, public, receive, render or view");
    }

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Sends one per core; every other lane half as many, at least one. */
    int defaultPermits(int cores) {
      return this == SEND ? Math.max(1, cores) : Math.max(1, cores / 2);
    }
  }

  /**
   * What a lane is doing, for the health answer: its permits, jobs running now (until their worker
   * is back or gone), and how many ended each way: completed (answered), stopped (its worker killed
   * at the time limit or on cancel, before it answered), lost (its worker died without an answer).
   */
  static final class LaneCounts {
    final int permits;
    final AtomicInteger running = new AtomicInteger();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong stopped = new AtomicLong();
    final AtomicLong lost = new AtomicLong();

    LaneCounts(int permits) {
      this.permits = permits;
    }
  }

  /** Why no answer came: {@code busy} (no permit or worker in time), {@code time_limit}, {@code cancelled} or {@code lost}. */
  static final class Stopped extends Exception {
    final String reason;

    Stopped(String reason, String message) {
      super(message);
      this.reason = reason;
    }
  }

  /** A job from its id's registration on: a cancel may come while it waits, or while its worker runs it. */
  private static final class Run {
    private WorkerPool.Child child;
    private String stopReason;

    /** Marks the run stopped; kills its worker if it has one. */
    synchronized void stop(String reason) {
      if (stopReason == null) {
        stopReason = reason;
      }
      if (child != null) {
        child.kill();
      }
    }

    /** Gives the run its worker, unless it was stopped already. */
    synchronized boolean attach(WorkerPool.Child worker) {
      child = worker;
      return stopReason == null;
    }

    /** The worker is going back to its pool: a stop from now on is too late to reach it. */
    synchronized void detach() {
      child = null;
    }

    synchronized String stopReason() {
      return stopReason;
    }
  }

  private final Map<Lane, Semaphore> permits = new EnumMap<>(Lane.class);
  private final Map<Lane, LaneCounts> counts = new EnumMap<>(Lane.class);
  private final Map<WorkerPool.Kind, WorkerPool> pools;
  private final Map<String, Run> running = new ConcurrentHashMap<>();
  private final ScheduledExecutorService limits = Executors.newSingleThreadScheduledExecutor(work -> {
    Thread thread = new Thread(work, "time-limits");
    thread.setDaemon(true);
    return thread;
  });

  /** {@code permitsByLane}: each lane's permits (a lane may have none: it refuses every job as busy). */
  Validations(Map<Lane, Integer> permitsByLane, Map<WorkerPool.Kind, WorkerPool> pools) {
    for (Lane lane : Lane.values()) {
      int count = permitsByLane.get(lane);
      permits.put(lane, new Semaphore(count));
      counts.put(lane, new LaneCounts(count));
    }
    this.pools = pools;
  }

  /** Each lane's counts, live. */
  Map<Lane, LaneCounts> counts() {
    return counts;
  }

  /**
   * Runs {@code job} in a worker under a permit of {@code lane}, for at most {@code limitMillis}
   * including the wait for the permit and the worker.
   */
  Answer run(Lane lane, String id, long limitMillis, Job job) throws Stopped, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMillis);
    Run run = new Run();
    if (id != null && running.putIfAbsent(id, run) != null) {
      throw new IllegalArgumentException("a job with id " + id + " is running");
    }
    try {
      Semaphore permits = this.permits.get(lane);
      if (!permits.tryAcquire(limitMillis, TimeUnit.MILLISECONDS)) {
        throw new Stopped("busy", "no " + lane.label() + " permit became free within " + limitMillis + " ms");
      }
      try {
        return runWithPermit(lane, run, deadline, limitMillis, job);
      } finally {
        permits.release();
      }
    } finally {
      if (id != null) {
        running.remove(id, run);
      }
    }
  }

  /** The job in a worker; the worker is back in its pool, or gone, before this returns. */
  private Answer runWithPermit(Lane lane, Run run, long deadline, long limitMillis, Job job) throws Stopped, InterruptedException {
    LaneCounts laneCounts = counts.get(lane);
    if (run.stopReason() != null) {
      laneCounts.stopped.incrementAndGet();
      throw stopped(run.stopReason(), limitMillis);
    }
    WorkerPool pool = pools.get(job.kind());
    WorkerPool.Child child = pool.take(remainingMillis(deadline));
    if (child == null) {
      throw new Stopped("busy", "no " + pool.kind().name().toLowerCase(Locale.ROOT) + " worker became free within " + limitMillis + " ms");
    }
    laneCounts.running.incrementAndGet();
    ScheduledFuture<?> limit = limits.schedule(() -> run.stop("time_limit"), remainingMillis(deadline), TimeUnit.MILLISECONDS);
    try {
      if (!run.attach(child)) {
        child.kill();
        laneCounts.stopped.incrementAndGet();
        throw stopped(run.stopReason(), limitMillis);
      }
      try {
        Answer answer = child.call(job);
        laneCounts.completed.incrementAndGet();
        return answer;
      } catch (java.io.IOException e) {
        // Its pipe broke: the worker is dead or no longer answers, and is never taken again. Java may not have reaped
        // a process killed from outside yet (isAlive() still true), which would have put the corpse back among the idle.
        child.kill();
        String reason = run.stopReason();
        if (reason == null) {
          laneCounts.lost.incrementAndGet();
          throw new Stopped("lost", "the worker ended without an answer: " + e.getMessage());
        }
        laneCounts.stopped.incrementAndGet();
        throw stopped(reason, limitMillis);
      }
    } finally {
      limit.cancel(false);
      run.detach();
      pool.giveBack(child);
      laneCounts.running.decrementAndGet();
    }
  }

  private static Stopped stopped(String reason, long limitMillis) {
    return reason.equals("time_limit")
        ? new Stopped(reason, "the job did not finish within " + limitMillis + " ms")
        : new Stopped(reason, "the job was cancelled");
  }

  private static long remainingMillis(long deadline) {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
  }

  /** Stops the job with this id (its worker killed); false when none runs under it. */
  boolean cancel(String id) {
    Run run = running.get(id);
    if (run == null) {
      return false;
    }
    run.stop("cancelled");
    return true;
  }
}

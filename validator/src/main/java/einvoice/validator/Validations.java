package einvoice.validator;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs validations within bounds: each lane has its own permits, so public validations can never
 * hold the ones sends need; each validation has a time limit; and a caller that gives up can cancel
 * its validation by id. Either way the permit comes back as soon as the stopped run has ended.
 *
 * <p>The schematron engine (Saxon, through phive) does not look at thread interrupts, so a
 * validation that must end is stopped with {@link Thread#stop()}, which Java 17 to 19 still carry
 * (from Java 20 it only throws: the service refuses to start there, {@link #requireThreadStop()}).
 * The stopped thread gives its permit back itself when it has ended. The
 * rule sets it could touch are compiled once and read-only; the per-run state it abandons belongs to
 * that run alone.
 */
final class Validations {
  enum Lane {
    /** The send workflow's validating step: documents this service built and bounded. */
    SEND,
    /** Requests from outside (the public validator, validation without sending). */
    INTERACTIVE,
    /** Documents received (by AS4, or posted to the sandbox): written by others, so they never take a send's permit. */
    RECEIVE,
    /**
     * Renderings a delivery needs (the sandbox email's PDF, an attached PDF): a PDF costs several
     * validations' CPU, so they wait for permits of their own rather than hold the ones every send's
     * validation needs.
     */
    RENDER;

    /** The lane a request names (`send`, `interactive`, `receive`); none is `send`. */
    static Lane named(String name) {
      if (name == null) {
        return SEND;
      }
      for (Lane lane : values()) {
        if (lane.name().equalsIgnoreCase(name)) {
          return lane;
        }
      }
      throw new IllegalArgumentException("unknown lane " + name + "; use send, interactive, receive or render");
    }
  }

  /** What a lane is doing, for the health answer: its permits, validations running now, and how many ended each way. */
  static final class LaneCounts {
    final int permits;
    final AtomicInteger running = new AtomicInteger();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong stopped = new AtomicLong();

    LaneCounts(int permits) {
      this.permits = permits;
    }
  }

  /** Why no verdict came: {@code busy} (no permit in time), {@code time_limit} or {@code cancelled}. */
  static final class Stopped extends Exception {
    final String reason;

    Stopped(String reason, String message) {
      super(message);
      this.reason = reason;
    }
  }

  interface Work<T> {
    T run() throws Exception;
  }

  private final Map<Lane, Semaphore> permits = new EnumMap<>(Lane.class);
  private final Map<Lane, LaneCounts> counts = new EnumMap<>(Lane.class);
  private final Map<String, Thread> running = new ConcurrentHashMap<>();

  Validations(int cores) {
    // Sends one per core; documents from outside (asked for, or received) at most half the cores each, so
    // sends keep theirs whatever those do.
    for (Lane lane : Lane.values()) {
      int count = lane == Lane.SEND ? Math.max(1, cores) : Math.max(1, cores / 2);
      permits.put(lane, new Semaphore(count));
      counts.put(lane, new LaneCounts(count));
    }
  }

  /** Each lane's counts, live. */
  Map<Lane, LaneCounts> counts() {
    return counts;
  }

  /**
   * Runs {@code work} under a permit of {@code lane}, for at most {@code limitMillis} including the
   * wait for the permit.
   */
  <T> T run(Lane lane, String id, long limitMillis, Work<T> work) throws Stopped, Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMillis);
    Semaphore permits = this.permits.get(lane);
    LaneCounts laneCounts = counts.get(lane);
    if (!permits.tryAcquire(limitMillis, TimeUnit.MILLISECONDS)) {
      throw new Stopped("busy", "no validation slot became free within " + limitMillis + " ms");
    }
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread thread = new Thread(() -> {
      try {
        outcome.set(new Result<>(work.run()));
      } catch (Throwable e) { // ThreadDeath from a stop included: the run is over either way.
        outcome.set(e);
      } finally {
        // Counted and given back by the thread itself: a stopped validation stops counting, and its permit
        // comes back, only once it has really ended, so the lane never runs more than its permits.
        laneCounts.running.decrementAndGet();
        permits.release();
      }
    }, "validation-" + id);
    if (id != null && running.putIfAbsent(id, thread) != null) {
      permits.release();
      throw new IllegalArgumentException("a validation with id " + id + " is running");
    }
    laneCounts.running.incrementAndGet();
    try {
      thread.start();
    } catch (Error e) { // No thread to give the permit back: this caller does.
      laneCounts.running.decrementAndGet();
      permits.release();
      throw e;
    }
    try {
      thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      if (thread.isAlive()) {
        stop(thread);
        laneCounts.stopped.incrementAndGet();
        throw new Stopped("time_limit", "the validation did not finish within " + limitMillis + " ms");
      }
    } finally {
      if (id != null) {
        running.remove(id, thread);
      }
    }
    Object result = outcome.get();
    if (result instanceof Result<?> done) {
      laneCounts.completed.incrementAndGet();
      @SuppressWarnings("unchecked")
      T value = (T) done.value();
      return value;
    }
    if (result instanceof ThreadDeath) {
      laneCounts.stopped.incrementAndGet();
      throw new Stopped("cancelled", "the validation was cancelled");
    }
    if (result instanceof Exception e) {
      throw e;
    }
    throw new IllegalStateException("the validation failed", (Throwable) result);
  }

  /**
   * Java 20 made {@link Thread#stop()} throw: on such a Java nothing could stop a validation past its
   * time limit, and it would keep its permit for as long as it ran. Better not to start at all.
   */
  static void requireThreadStop() {
    int feature = Runtime.version().feature();
    if (feature >= 20) {
      throw new IllegalStateException("this validator needs Java 17 to 19: it stops validations past their time limit with Thread.stop, "
          + "which Java " + feature + " no longer carries (set JAVA_HOME to a Java 17)");
    }
  }

  /** Stops the validation with this id; false when none runs under it. */
  boolean cancel(String id) {
    Thread thread = running.get(id);
    if (thread == null) {
      return false;
    }
    stop(thread);
    return true;
  }

  @SuppressWarnings({"deprecation", "removal"})
  private static void stop(Thread thread) {
    thread.stop();
    try {
      // The thread ends as soon as the stop reaches it; waiting keeps its CPU out of the next run's.
      thread.join(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private record Result<T>(T value) {}
}

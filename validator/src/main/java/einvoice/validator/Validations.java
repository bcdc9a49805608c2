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
 * its validation by id. Either way the permit comes back at once.
 *
 * <p>The schematron engine (Saxon, through phive) does not look at thread interrupts, so a
 * validation that must end is stopped with {@link Thread#stop()}, which Java 17 still carries. The
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
    RECEIVE;

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
      throw new IllegalArgumentException("unknown lane " + name + "; use send, interactive or receive");
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
    try {
      AtomicReference<Object> outcome = new AtomicReference<>();
      Thread thread = new Thread(() -> {
        try {
          outcome.set(new Result<>(work.run()));
        } catch (Throwable e) { // ThreadDeath from a stop included: the run is over either way.
          outcome.set(e);
        } finally {
          // Counted by the thread itself: a stopped validation stops counting only once it has really ended.
          laneCounts.running.decrementAndGet();
        }
      }, "validation-" + id);
      if (id != null && running.putIfAbsent(id, thread) != null) {
        throw new IllegalArgumentException("a validation with id " + id + " is running");
      }
      try {
        laneCounts.running.incrementAndGet();
        thread.start();
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
    } finally {
      permits.release();
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

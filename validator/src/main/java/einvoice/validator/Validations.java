package einvoice.validator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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
    INTERACTIVE
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

  private final Semaphore sendPermits;
  private final Semaphore interactivePermits;
  private final Map<String, Thread> running = new ConcurrentHashMap<>();

  Validations(int cores) {
    sendPermits = new Semaphore(Math.max(1, cores));
    // At most half the cores for requests from outside; sends keep theirs whatever those do.
    interactivePermits = new Semaphore(Math.max(1, cores / 2));
  }

  /**
   * Runs {@code work} under a permit of {@code lane}, for at most {@code limitMillis} including the
   * wait for the permit.
   */
  <T> T run(Lane lane, String id, long limitMillis, Work<T> work) throws Stopped, Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMillis);
    Semaphore permits = lane == Lane.SEND ? sendPermits : interactivePermits;
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
        }
      }, "validation-" + id);
      if (id != null && running.putIfAbsent(id, thread) != null) {
        throw new IllegalArgumentException("a validation with id " + id + " is running");
      }
      try {
        thread.start();
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        if (thread.isAlive()) {
          stop(thread);
          throw new Stopped("time_limit", "the validation did not finish within " + limitMillis + " ms");
        }
      } finally {
        if (id != null) {
          running.remove(id, thread);
        }
      }
      Object result = outcome.get();
      if (result instanceof Result<?> done) {
        @SuppressWarnings("unchecked")
        T value = (T) done.value();
        return value;
      }
      if (result instanceof ThreadDeath) {
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

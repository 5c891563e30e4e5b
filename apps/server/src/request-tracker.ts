/** Counters of what the server did, for `GET /health`. */
export interface RequestCounts {
  /** Retrievals and node look-ups running now (including ones whose client has gone). */
  readonly inFlight: number;
  /** Answered with a 2xx. */
  readonly served: number;
  /** Stopped because their client went away or the server was shutting down. */
  readonly aborted: number;
  /** Stopped by the per-request timeout. */
  readonly timedOut: number;
  /** Answered with a 4xx (bad input). */
  readonly rejected: number;
  /** Failed with a 5xx other than a timeout. */
  readonly failed: number;
}

type Outcome = 'served' | 'aborted' | 'timedOut' | 'rejected' | 'failed';

/**
 * Knows which work is in flight, so that a shutdown can wait for it before the store closes:
 * the store's native engines must not close under a running query, even one whose client has gone
 * or that outlived its timeout. `stopAll` aborts whatever still runs when the grace period ends.
 */
export class RequestTracker {
  private readonly running = new Set<Promise<unknown>>();
  private readonly counts = { served: 0, aborted: 0, timedOut: 0, rejected: 0, failed: 0 };
  private readonly stopController = new AbortController();
  private idleWaiters: (() => void)[] = [];
  private drainingSince: number | undefined;

  /** Aborted when the server gives up waiting at shutdown; every request's signal follows it. */
  get stopSignal(): AbortSignal {
    return this.stopController.signal;
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** From now on new work is refused (503); running work goes on. */
  startDraining(): void {
    this.drainingSince ??= Date.now();
  }

  /** Runs `work` as in-flight until it settles, however its request ends. */
  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const done = () => {
      this.running.delete(work);
      if (this.running.size === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const resolve of waiters) resolve();
      }
    };
    work.then(done, done);
    return work;
  }

  count(outcome: Outcome): void {
    this.counts[outcome]++;
  }

  snapshot(): RequestCounts {
    return { inFlight: this.running.size, ...this.counts };
  }

  /** Resolves once nothing is in flight. */
  idle(): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Aborts every running request (shutdown past its grace period). */
  stopAll(reason: string): void {
    this.stopController.abort(new Error(reason));
  }
}

// Counts of the API requests a sandbox received and how they were answered: the `requests` part of
// GET /__sandbox/state. Control endpoints and the res URL's lists are not API requests.

export interface RequestStats {
  /** API requests received (control endpoints not counted). */
  total: number;
  /** Answers by HTTP status. */
  byStatus: Record<string, number>;
  /** Requests the account handled, by `version/operation`. */
  byOperation: Record<string, number>;
  /** Answers lost on purpose (processed, no answer). */
  dropped: number;
  /** 429 from the rate limit itself (the rest of byStatus[429] are injected bursts). */
  rateLimited: number;
  /** Injected faults that fired. */
  injected: { burst429: number; failures: number; drops: number };
}

export type InjectedFault = keyof RequestStats['injected'];

function emptyStats(): RequestStats {
  const injected = { burst429: 0, failures: 0, drops: 0 };
  return { total: 0, byStatus: {}, byOperation: {}, dropped: 0, rateLimited: 0, injected };
}

export class RequestCounters {
  #stats = emptyStats();

  received(): void {
    this.#stats.total += 1;
  }

  answered(status: number): void {
    const by = this.#stats.byStatus;
    by[status] = (by[status] ?? 0) + 1;
  }

  /** The account handled a request of `version/operation`. */
  handled(version: string, op: string): void {
    const by = this.#stats.byOperation;
    const key = `${version}/${op}`;
    by[key] = (by[key] ?? 0) + 1;
  }

  rateLimited(): void {
    this.#stats.rateLimited += 1;
  }

  injected(fault: InjectedFault): void {
    this.#stats.injected[fault] += 1;
    if (fault === 'drops') this.#stats.dropped += 1;
  }

  reset(): void {
    this.#stats = emptyStats();
  }

  snapshot(): RequestStats {
    return structuredClone(this.#stats);
  }
}

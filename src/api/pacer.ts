// CONTRACT STUB — implemented by the API-core work.

/** Admits request starts so that no more than `perSecond` begin in any one-second window. */
export interface Pacer {
  /** Resolves when a request may start; rejects with the signal's reason when aborted. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** After a 429, hold all starts for this long. */
  backoff(ms: number): void;
}

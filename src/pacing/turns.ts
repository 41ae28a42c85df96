// Callers of one process take turns at a shared budget, first come, first served, so that only the one at the front
// touches its file; a caller whose signal aborts stops waiting at once.

export class Turns {
  #last: Promise<void> = Promise.resolve();

  /** Runs `fn` once every earlier caller's has settled; rejects with the signal's reason as soon as it aborts. */
  take<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const mine = this.#last.then(fn);
    this.#last = mine.then(
      () => {},
      () => {},
    );
    return signal ? abandonable(mine, signal) : mine;
  }
}

/** `work`'s outcome, or the signal's reason as soon as it aborts (the work itself goes on to its end). */
function abandonable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

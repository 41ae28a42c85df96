// The rate budget shared by every trk process on one key: the service counts requests per key, so two cron jobs
// that each pace themselves to 3 a second still reach it at 6. On one machine the processes share a file in the
// state folder (file-pacer.ts); across hosts, Redis (redis-pacer.ts). Here: what both have in common, their name
// and what happens when neither can be used.

import path from 'node:path';
import { TrkError } from '../core/errors.js';
import type { AcquireOptions, Pacer } from './pacer.js';
import { nodeCrypto } from '../core/node.js';

/**
 * Added to the one-second window of a shared budget. The service counts arrivals, and a request can take a few
 * milliseconds longer than the one before it to arrive. 30 ms keeps 429s away on a loaded machine and costs 3 %.
 */
export const SHARED_MARGIN_MS = 30;

/** The shared budget cannot be used (its file, or its Redis): reads go on at this process's own pace. */
export class BudgetError extends TrkError {}

/**
 * The name of the budget of one key at one address. The service's limit is per key, so the key names the budget
 * (profiles sharing a key share it too); only a digest of it is written, never the key. node:crypto is Node's own
 * object, loaded here, where the first request of a process needs it.
 */
export function budgetName(baseUrl: string, apiKey: string): string {
  const text = `${baseUrl.replace(/\/+$/, '')}\u0000${apiKey}`;
  return nodeCrypto().hash('sha256', text).slice(0, 24);
}

/** The budget file of one key at one address, in the state folder. */
export function budgetFile(stateDirectory: string, baseUrl: string, apiKey: string): string {
  return path.join(stateDirectory, 'budget', `${budgetName(baseUrl, apiKey)}.json`);
}

/**
 * The shared budget, falling back to this process's own pace for reads when its file (or Redis) cannot be used:
 * `trk quota` or `trk list` on a full disk or with a read-only state folder still work, after one warning line.
 * Writes fail with the BudgetError instead: they are what runs unattended and in parallel (cron, bulk runs), where
 * pacing each process alone would send the service more than its rate, and a state folder that cannot be written
 * is better fixed before anything is changed. `shared` is the error itself when the budget could not even be set
 * up.
 */
export function withLocalFallback(shared: Pacer | BudgetError, local: Pacer, warn: (line: string) => void): Pacer {
  const budget = shared instanceof BudgetError ? undefined : shared;
  let broken = shared instanceof BudgetError ? shared : undefined;
  let warned = false;
  const fallBack = (signal: AbortSignal | undefined, opts: AcquireOptions | undefined, err: BudgetError) => {
    if (!opts?.readOnly) return Promise.reject(err);
    if (!warned) {
      warned = true;
      warn(`warning: ${err.message}; pacing requests in this process only`);
    }
    return local.acquire(signal, opts);
  };
  return {
    async acquire(signal, opts) {
      if (broken || !budget) return fallBack(signal, opts, broken as BudgetError);
      try {
        return await budget.acquire(signal, opts);
      } catch (err) {
        if (!(err instanceof BudgetError)) throw err;
        broken = err;
        return fallBack(signal, opts, err);
      }
    },
    backoff(ms, reason) {
      local.backoff(ms, reason);
      budget?.backoff(ms, reason);
    },
  };
}

// The budget shared by every process on a key, opened for a command run: in Redis when a budget URL is set (every
// host on the key), else in a file of the state folder (this machine); this process's own pace for reads when it
// cannot be used (withLocalFallback). The Redis client is loaded only when Redis is named.

import path from 'node:path';
import { budgetFile, budgetName, withLocalFallback, type BudgetError } from './budget.js';
import { BudgetFileError } from './budget-file.js';
import { FilePacer } from './file-pacer.js';
import type { HoldListener, Pacer } from './pacer.js';

export interface SharedBudgetOptions {
  baseUrl: string;
  apiKey: string;
  /** The state folder: the budget file goes into its `budget` folder. */
  stateDirectory: string;
  /** Makes a folder only this user can read (the budget folder). */
  makePrivateDirectory: (dir: string) => void;
  /** `redis://` or `rediss://`: the budget is kept there. */
  budgetUrl?: string | undefined;
  perSecond: number;
  onHold: HoldListener;
  /** This process's own pace, for reads when the shared budget cannot be used. */
  local: Pacer;
  /** Told once when reads fall back to `local`. */
  warn: (line: string) => void;
}

export interface SharedBudget {
  pacer: Pacer;
  /** Closes the connection to Redis, if any. */
  close(): Promise<void>;
}

export async function openSharedBudget(opts: SharedBudgetOptions): Promise<SharedBudget> {
  if (opts.budgetUrl !== undefined) {
    const { RedisPacer } = await import('./redis-pacer.js');
    const budget = budgetName(opts.baseUrl, opts.apiKey);
    const redis = new RedisPacer({ url: opts.budgetUrl, budget, perSecond: opts.perSecond, onHold: opts.onHold });
    return { pacer: withLocalFallback(redis, opts.local, opts.warn), close: () => redis.close() };
  }
  const file = budgetFile(opts.stateDirectory, opts.baseUrl, opts.apiKey);
  let shared: Pacer | BudgetError;
  try {
    opts.makePrivateDirectory(path.dirname(file));
    shared = new FilePacer({ file, perSecond: opts.perSecond, onHold: opts.onHold });
  } catch (err) {
    shared = new BudgetFileError(path.dirname(file), err);
  }
  return { pacer: withLocalFallback(shared, opts.local, opts.warn), close: async () => {} };
}

// The rate budgets one command run starts its requests under: the budget shared by every process on a key (in
// Redis when a budget URL is set, else in a file of the state folder), and this process's own pace, which the
// embedded emulator's budget is and reads fall back to when the shared one cannot be used. Pacing is loaded with
// the first request, never at start-up.

import { LIMITS } from '@trk/service/vocabulary.js';
import { stateDir } from '../config/paths.js';
import { ensureFolder } from '../core/private-files.js';
import type { BudgetTarget } from './context.js';
import type { HoldListener, Pacer } from '../pacing/pacer.js';
import type { SettingsSource } from './settings-source.js';

export interface RateBudgetsOptions {
  env: NodeJS.ProcessEnv;
  settings: SettingsSource;
  /** Told once per hold, when a start first waits for it. */
  onHold: HoldListener;
  /** A warning, shown even with --quiet. */
  warn: (line: string) => void;
  /** Registers what closes a shared budget when the run ends. */
  onClose: (close: () => Promise<void>) => void;
}

export class RateBudgets {
  private local: Promise<Pacer> | undefined;
  private ofSettings: Promise<Pacer> | undefined;
  private readonly shared = new Map<string, Promise<Pacer>>();

  constructor(private readonly opts: RateBudgetsOptions) {}

  /** The budget of `target`'s key, else of the settings' key (this process's own under --sandbox or without one). */
  pacer(target?: BudgetTarget): Promise<Pacer> {
    if (target) return this.sharedBudget(target);
    this.ofSettings ??= this.settingsBudget();
    return this.ofSettings;
  }

  private async settingsBudget(): Promise<Pacer> {
    const s = await this.opts.settings.settings();
    // The embedded emulator lives in this process: no other process shares its budget.
    if (s.sandbox || !s.apiKey) return this.ownPace();
    return this.sharedBudget({ baseUrl: s.baseUrl, apiKey: s.apiKey });
  }

  private ownPace(): Promise<Pacer> {
    this.local ??= import('../pacing/pacer.js').then(({ createPacer, DEFAULT_MARGIN_MS }) =>
      createPacer({ perSecond: LIMITS.requestsPerSecond, marginMs: DEFAULT_MARGIN_MS, onHold: this.opts.onHold }),
    );
    return this.local;
  }

  private sharedBudget(target: BudgetTarget): Promise<Pacer> {
    const key = `${target.baseUrl}\u0000${target.apiKey}`;
    let budget = this.shared.get(key);
    if (!budget) {
      budget = this.openShared(target);
      this.shared.set(key, budget);
    }
    return budget;
  }

  private async openShared(target: BudgetTarget): Promise<Pacer> {
    const [{ openSharedBudget }, { budgetUrl }, local] = await Promise.all([
      import('../pacing/open.js'),
      // resolved(), not settings(): `auth login` verifies a key for a profile that is not saved yet.
      this.opts.settings.resolved(),
      this.ownPace(),
    ]);
    const shared = await openSharedBudget({
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      stateDirectory: stateDir(this.opts.env),
      makePrivateDirectory: ensureFolder,
      budgetUrl,
      perSecond: LIMITS.requestsPerSecond,
      onHold: this.opts.onHold,
      local,
      warn: this.opts.warn,
    });
    this.opts.onClose(() => shared.close());
    return shared.pacer;
  }
}

// State restore: what a sandbox starts from. With a state file, the clock, console settings and account it saved
// (a corrupt file or one of another version stops the start: nothing is overwritten silently); without one, a
// fresh account at the start time. Settings: options given now > settings saved in the state file > defaults.

import { Account } from '../account/account.js';
import type { AccountSettings, AccountState } from '../account/types.js';
import { SimClock } from '../clock.js';
import { applyAccountSettings, defaultAccountSettings, parseSettingsPatch, settingsFromState } from '../settings.js';
import { readStateFile, type SandboxStateFile, StateFileError, StateSaver, STATE_FILE_VERSION } from '../state-file.js';
import type { SandboxOptions } from './types.js';
import { WebhookSender } from './webhook-sender.js';

export interface Restored {
  clock: SimClock;
  account: Account;
  /** Sends the account's webhooks unless `deliver` was given. */
  deliveries: WebhookSender;
  /** Saves clock, settings and account to the state file; undefined without one. */
  saver: StateSaver | undefined;
}

export async function restoreState(opts: SandboxOptions): Promise<Restored> {
  const saved = opts.stateFile === undefined ? undefined : await readStateFile(opts.stateFile);
  const clock = clockFrom(saved, opts);
  const deliveries = new WebhookSender();
  const account = accountFrom(saved, opts, clock, deliveries);
  const saver = opts.stateFile === undefined ? undefined : stateSaver(opts.stateFile, clock, account, opts.onError);
  return { clock, account, deliveries, saver };
}

/** A saved clock carries on (speed is every start's own); else a fresh one at `start` (default now). */
export function clockFrom(saved: SandboxStateFile | undefined, opts: SandboxOptions): SimClock {
  const speed = opts.speed ?? 1;
  const time = opts.time;
  const realNow = time ? { realNow: () => time.now() } : {};
  if (!saved) return new SimClock({ speed, ...realNow, ...(opts.start === undefined ? {} : { start: opts.start }) });
  return SimClock.resume(saved.clock, {
    speed,
    ...realNow,
    catchUp: opts.catchUp ?? 0,
    ...(opts.catchUpMaxMs === undefined ? {} : { catchUpMaxMs: opts.catchUpMaxMs }),
  });
}

/** Console settings: options given now > settings saved in the state file > defaults. */
export function startSettings(saved: SandboxStateFile | undefined, opts: SandboxOptions): AccountSettings {
  const settings = defaultAccountSettings();
  applyAccountSettings(settings, settingsFromState(saved?.settings));
  applyAccountSettings(settings, parseSettingsPatch(optionSettings(opts)));
  return settings;
}

/** Console settings among the start options, for the one validator. */
function optionSettings(opts: SandboxOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = ['key', 'webhookUrl', 'quotaTotal', 'maxTrackDaily', 'ipAllowList', 'disabled', 'realtimeAllowed'];
  for (const field of fields as (keyof SandboxOptions)[]) {
    if (opts[field] !== undefined) out[field] = opts[field];
  }
  return out;
}

function accountFrom(
  saved: SandboxStateFile | undefined,
  opts: SandboxOptions,
  clock: SimClock,
  deliveries: WebhookSender,
): Account {
  try {
    return new Account(
      {
        settings: startSettings(saved, opts),
        now: () => clock.now(),
        deliver: opts.deliver ?? ((d) => deliveries.send(d)),
        numericMetrics: opts.numericMetrics ?? false,
      },
      saved?.account as AccountState | undefined,
    );
  } catch (err) {
    if (!saved || opts.stateFile === undefined) throw err;
    throw new StateFileError(opts.stateFile, 'holds an account this trk cannot read', err);
  }
}

function stateSaver(
  path: string,
  clock: SimClock,
  account: Account,
  onError: ((err: unknown) => void) | undefined,
): StateSaver {
  return new StateSaver({
    path,
    snapshot: (): SandboxStateFile => ({
      version: STATE_FILE_VERSION,
      clock: clock.toJSON(),
      settings: { ...account.settings },
      account: account.toJSON(),
    }),
    onError: onError ?? (() => {}),
  });
}

// The per-request time limit: `--timeout <duration>` or TRK_TIMEOUT, e.g. `30s`, `2m`, `1500ms` (a bare number
// is seconds). The flag wins over the variable. Pure; a bad value is a usage error naming where it came from.

import { UsageError } from '../core/errors.js';
import { LIMITS } from '@trk/service/vocabulary.js';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/i;
/** Shorter than this no answer can come back from across a network; longer is a hang by any standard. */
const MIN_MS = 100;
const MAX_MS = 60 * 60_000;

/** Milliseconds of a duration such as `30s`, `2m`, `1500ms` or `45` (seconds); undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  const unit = (m[2]?.toLowerCase() ?? 's') as keyof typeof UNIT_MS;
  return Math.round(Number(m[1]) * UNIT_MS[unit]);
}

/** The time limit of one request: --timeout, else TRK_TIMEOUT, else the service's own 30 s. */
export function requestTimeoutMs(flag: string | undefined, env: NodeJS.ProcessEnv): number {
  const [text, source] =
    flag !== undefined
      ? [flag, '--timeout']
      : env.TRK_TIMEOUT?.trim()
        ? [env.TRK_TIMEOUT, 'TRK_TIMEOUT']
        : [undefined, ''];
  if (text === undefined) return LIMITS.requestTimeoutMs;
  const ms = parseDuration(text);
  if (ms === undefined || ms < MIN_MS || ms > MAX_MS) {
    // Shown as given, one line: it came from the command line or the environment, not from the network.
    const shown = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, 40);
    throw new UsageError(`invalid ${source} "${shown}"`, 'give a duration from 100ms to 60m, such as 30s or 2m');
  }
  return ms;
}

// Progress of a bulk run on stderr. On a terminal: one line redrawn in place (bar, counts, rate, time left, and
// "rate limited, resuming in Ns" while every start is paused). Elsewhere (cron, a log file): a plain line every
// 30 seconds, so a log shows the run is alive without thousands of lines. None with --quiet.
//
// Our own renderer rather than a progress-bar library: one line with two states is a few dozen lines, and the
// libraries on offer write to process.stderr themselves (we write through IO, so tests capture it) and
// bring dependencies for layout this does not need.

import type { IO } from '../io.js';

export type ProgressMode = 'bar' | 'lines' | 'none';

export interface ProgressCounts {
  /** Items settled, earlier runs of a resumed journal included. */
  done: number;
  total: number;
  rejected: number;
}

export interface Progress {
  update(counts: ProgressCounts): void;
  /** Every start is paused until `untilMs` (epoch ms). */
  waiting(reason: string, untilMs: number): void;
  /** Remove the bar (before the summary is printed). */
  stop(): void;
}

export interface ProgressOptions {
  mode: ProgressMode;
  /** What is being done, e.g. `register`. */
  label: string;
  /** Items per second at the service's ceiling: the estimate until there is a measured rate. */
  ceilingPerSecond: number;
  now?: () => number;
  /** Between two plain lines; default 30 s. */
  lineIntervalMs?: number;
  /** Between two redraws of the bar; default 200 ms. */
  redrawMs?: number;
}

export function progressMode(io: IO, quiet: boolean | undefined): ProgressMode {
  if (quiet) return 'none';
  return io.stderrIsTTY ? 'bar' : 'lines';
}

export function createProgress(io: IO, opts: ProgressOptions): Progress {
  if (opts.mode === 'none') return { update() {}, waiting() {}, stop() {} };
  const now = opts.now ?? Date.now;
  const started = now();
  let counts: ProgressCounts = { done: 0, total: 0, rejected: 0 };
  /** Items already done when this run started (a resumed journal): not part of this run's rate. */
  let baseline: number | undefined;
  let wait: { reason: string; until: number } | undefined;
  let drawn = false;

  const rate = (): number | undefined => {
    const seconds = (now() - started) / 1000;
    const ran = counts.done - (baseline ?? 0);
    return seconds >= 5 && ran > 0 ? ran / seconds : undefined;
  };

  const describe = (): string[] => {
    const { done, total } = counts;
    const parts = [`${fmt(done)}/${fmt(total)}`, `${total > 0 ? Math.floor((done / total) * 100) : 100}%`];
    const r = rate();
    if (r !== undefined) parts.push(`${r >= 10 ? Math.round(r) : r.toFixed(1)}/s`);
    const left = total - done;
    if (left > 0) parts.push(`ETA ${duration(left / (r ?? opts.ceilingPerSecond))}`);
    if (counts.rejected > 0) parts.push(`${fmt(counts.rejected)} rejected`);
    const w = wait;
    if (w && w.until > now()) parts.push(`${w.reason}, resuming in ${Math.ceil((w.until - now()) / 1000)}s`);
    return parts;
  };

  const draw = () => {
    const parts = describe();
    const text = parts.join(' · ');
    const width = Math.max(10, Math.min(30, io.columns - text.length - opts.label.length - 6));
    const ratio = counts.total > 0 ? Math.min(1, counts.done / counts.total) : 0;
    const filled = Math.round(ratio * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    io.stderr.write(`\r\x1b[2K${opts.label} ${bar} ${text}`);
    drawn = true;
  };

  const update = (c: ProgressCounts) => {
    baseline ??= c.done;
    counts = c;
  };

  if (opts.mode === 'bar') {
    const timer = setInterval(draw, opts.redrawMs ?? 200);
    timer.unref();
    return {
      update,
      waiting(reason, until) {
        wait = { reason, until };
        draw();
      },
      stop() {
        clearInterval(timer);
        if (drawn) io.stderr.write('\r\x1b[2K');
      },
    };
  }

  const timer = setInterval(() => {
    const [share, percent, ...rest] = describe();
    io.err(`${opts.label}: ${share} (${percent})${rest.length > 0 ? `, ${rest.join(', ')}` : ''}`);
  }, opts.lineIntervalMs ?? 30_000);
  timer.unref();
  return {
    update,
    waiting(reason, until) {
      wait = { reason, until };
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** 1234567 → `1,234,567`. */
export function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Seconds → `45s`, `12m 21s`, `2h 5m`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

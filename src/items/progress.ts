// Progress of an item run on stderr. On a terminal: one line redrawn in place, never wider than the terminal
// (a line that wraps leaves a copy behind at every redraw). Before there is anything to count it is a spinner
// saying what happens ("checking numbers.csv", "waiting for the first answer"); then a bar with counts, rate,
// time left, and "rate limited, resuming in Ns" while every start is paused. What does not fit goes in this
// order: the rate, the time left, the end of the message. Elsewhere (cron, a log file): a plain line every 30
// seconds, so a log shows the run is alive without thousands of lines. None with --quiet.
//
// Our own renderer rather than a progress-bar library: one line with two states is a few dozen lines, and the
// libraries on offer write to process.stderr themselves (we write through IO, so tests capture it) and
// bring dependencies for layout this does not need.

import type { IO } from '../io/io.js';
import { drawnCharacters, textWidth } from '../output/width.js';
import { duration, fmt } from '../core/text.js';
import { clock } from '../core/clock.js';

export type ProgressMode = 'bar' | 'lines' | 'none';

export interface ProgressCounts {
  /** Items settled, earlier runs of a resumed journal included. */
  done: number;
  total: number;
  rejected: number;
}

export interface Progress {
  /** Redrawn in place on a terminal: waits and messages belong on it rather than on lines of their own. */
  readonly inPlace: boolean;
  /** What happens before there are counts: shown beside a spinner. */
  phase(text: string): void;
  update(counts: ProgressCounts): void;
  /** Every start is paused until `untilMs` (epoch ms). */
  waiting(reason: string, untilMs: number): void;
  /** Remove the line (before the summary is printed). */
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

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * The bar line for a width: the label, a bar, then the parts, dropping the rate, then the time left, then cutting
 * the message, until it fits. `parts` are [counts, percent, rate?, eta?, rejected?, message?] with undefined
 * for what is absent.
 */
export function fitBarLine(label: string, ratio: number, parts: BarParts, width: number): string {
  const order: (keyof BarParts)[][] = [
    ['count', 'percent', 'rate', 'eta', 'rejected', 'message'],
    ['count', 'percent', 'eta', 'rejected', 'message'],
    ['count', 'percent', 'rejected', 'message'],
  ];
  for (const keys of order) {
    const text = keys
      .map((k) => parts[k])
      .filter((p): p is string => p !== undefined)
      .join(' · ');
    const barWidth = Math.min(30, width - textWidth(text) - textWidth(label) - 3);
    if (barWidth >= 10) return `${label} ${bar(ratio, barWidth)} ${text}`;
  }
  // Still too wide: no bar, and the message cut at the end.
  const text = ['count', 'percent', 'rejected', 'message']
    .map((k) => parts[k as keyof BarParts])
    .filter((p): p is string => p !== undefined)
    .join(' · ');
  return cut(`${label} ${text}`, width);
}

export interface BarParts {
  count: string;
  percent: string;
  rate?: string | undefined;
  eta?: string | undefined;
  rejected?: string | undefined;
  message?: string | undefined;
}

function bar(ratio: number, width: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, ratio)) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}

/** `text` cut to `width` terminal cells, with an ellipsis where it was cut. */
export function cut(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const ch of drawnCharacters(text)) {
    if (used + ch.width > width - 1) break;
    out += ch.text;
    used += ch.width;
  }
  return `${out}…`;
}

export function createProgress(io: IO, opts: ProgressOptions): Progress {
  if (opts.mode === 'none') return { inPlace: false, phase() {}, update() {}, waiting() {}, stop() {} };
  const now = opts.now ?? (() => clock().now());
  let started = now();
  let counts: ProgressCounts | undefined;
  let phase = '';
  /** Items already done when counting began (a resumed journal): not part of this run's rate. */
  let baseline = 0;
  let wait: { reason: string; until: number } | undefined;

  const waitText = (): string | undefined => {
    const w = wait;
    return w && w.until > now() ? `${w.reason}, resuming in ${Math.ceil((w.until - now()) / 1000)}s` : undefined;
  };

  const parts = (c: ProgressCounts): BarParts => {
    const seconds = (now() - started) / 1000;
    const ran = c.done - baseline;
    const rate = seconds >= 5 && ran > 0 ? ran / seconds : undefined;
    const left = c.total - c.done;
    return {
      count: `${fmt(c.done)}/${fmt(c.total)}`,
      percent: `${c.total > 0 ? Math.floor((c.done / c.total) * 100) : 0}%`,
      rate: rate === undefined ? undefined : `${rate >= 10 ? Math.round(rate) : rate.toFixed(1)}/s`,
      eta: left > 0 ? `ETA ${duration(left / (rate ?? opts.ceilingPerSecond))}` : undefined,
      rejected: c.rejected > 0 ? `${fmt(c.rejected)} rejected` : undefined,
      message: waitText(),
    };
  };

  const update = (c: ProgressCounts) => {
    if (counts === undefined) {
      baseline = c.done;
      started = now();
    }
    counts = c;
  };

  if (opts.mode === 'bar') {
    let drawn = false;
    let frame = 0;
    const draw = () => {
      const width = Math.max(20, io.stderrColumns - 1);
      let line: string;
      if (counts === undefined) {
        const message = [phase, waitText()].filter(Boolean).join(' · ');
        line = cut(`${SPINNER[frame++ % SPINNER.length]} ${opts.label}${message ? ` ${message}` : ''}`, width);
      } else {
        line = fitBarLine(opts.label, counts.total > 0 ? counts.done / counts.total : 0, parts(counts), width);
      }
      io.stderr.write(`\r\x1b[2K${line}`);
      drawn = true;
    };
    const timer = setInterval(draw, opts.redrawMs ?? 120);
    timer.unref();
    // A status line written while the bar is up (a wait announced by the client, a warning) takes the bar's
    // place, and the bar is drawn again below it: the two never share a line.
    const plainErr = io.err;
    io.err = (line: string) => {
      if (drawn) io.stderr.write('\r\x1b[2K');
      drawn = false;
      plainErr.call(io, line);
      draw();
    };
    return {
      inPlace: true,
      phase(text) {
        phase = text;
        draw();
      },
      update,
      waiting(reason, until) {
        wait = { reason, until };
        draw();
      },
      stop() {
        clearInterval(timer);
        io.err = plainErr;
        if (drawn) io.stderr.write('\r\x1b[2K');
        drawn = false;
      },
    };
  }

  const timer = setInterval(() => {
    if (counts === undefined) {
      if (phase) io.err(`${opts.label}: ${[phase, waitText()].filter(Boolean).join(', ')}`);
      return;
    }
    const p = parts(counts);
    const rest = [p.rate, p.eta, p.rejected, p.message].filter((x): x is string => x !== undefined);
    io.err(`${opts.label}: ${p.count} (${p.percent})${rest.length > 0 ? `, ${rest.join(', ')}` : ''}`);
  }, opts.lineIntervalMs ?? 30_000);
  timer.unref();
  return {
    inPlace: false,
    phase(text) {
      phase = text;
    },
    update,
    waiting(reason, until) {
      wait = { reason, until };
    },
    stop() {
      clearInterval(timer);
    },
  };
}

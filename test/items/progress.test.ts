import { beforeAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestIO } from '../test-io.js';
import { createProgress, cut, fitBarLine, progressMode } from '../../src/items/progress.js';
import { exitCodeOf, summaryLines, type RunSummary } from '../../src/items/results.js';
import { loadTextWidths, textWidth } from '../../src/output/width.js';
import { duration } from '../../src/core/text.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** What a terminal shows last: the text after the final carriage return and erase. */
function lastLine(text: string): string {
  return text.split('\r\x1b[2K').at(-1) ?? '';
}

// Widths as a terminal draws them, as for a command laying out text for people (src/cli.ts loads them).
beforeAll(loadTextWidths);

describe('progress', () => {
  it('picks a bar on a terminal, lines elsewhere, nothing with --quiet', () => {
    expect(progressMode(createTestIO({ tty: true }), false)).toBe('bar');
    expect(progressMode(createTestIO(), false)).toBe('lines');
    expect(progressMode(createTestIO({ tty: true }), true)).toBe('none');
  });

  it('shows a spinner with what happens until the first count, never "0/0"', () => {
    const io = createTestIO({ tty: true, columns: 80 });
    const p = createProgress(io, { mode: 'bar', label: 'register', ceilingPerSecond: 120, now: () => 0 });
    p.phase('checking numbers.csv');
    vi.advanceTimersByTime(500);
    expect(lastLine(io.stderrText())).toMatch(/^. register checking numbers\.csv$/);
    p.phase('waiting for the first answer');
    expect(lastLine(io.stderrText())).toMatch(/^. register waiting for the first answer$/);
    expect(io.stderrText()).not.toContain('0/0');
    p.stop();
    expect(io.stderrText().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('draws a bar with counts, rate, ETA and the rate-limit wait', () => {
    const io = createTestIO({ tty: true, columns: 120 });
    let now = 0;
    const p = createProgress(io, { mode: 'bar', label: 'register', ceilingPerSecond: 120, now: () => now });
    p.update({ done: 0, total: 12_000, rejected: 0 });
    now = 10_000;
    p.update({ done: 1200, total: 12_000, rejected: 3 });
    vi.advanceTimersByTime(250);
    expect(lastLine(io.stderrText())).toMatch(/^register █+░+ 1,200\/12,000 · 10% · 120\/s · ETA 1m 30s · 3 rejected$/);
    p.waiting('rate limited', now + 3000);
    expect(lastLine(io.stderrText()).endsWith('· rate limited, resuming in 3s')).toBe(true);
    p.stop();
  });

  it('never draws a line wider than the terminal: drops the rate, then the ETA, then cuts the message', () => {
    const parts = {
      count: '1,640/3,000',
      percent: '54%',
      rate: '187/s',
      eta: 'ETA 7s',
      rejected: '3 rejected',
      message: 'service unavailable, resuming in 1s',
    };
    const wide = fitBarLine('register', 0.54, parts, 120);
    expect(wide).toContain('187/s');
    const at80 = fitBarLine('register', 0.54, parts, 80);
    expect(textWidth(at80)).toBeLessThanOrEqual(80);
    expect(at80).not.toContain('187/s');
    expect(at80).toContain('service unavailable, resuming in 1s');
    const at60 = fitBarLine('register', 0.54, parts, 60);
    expect(textWidth(at60)).toBeLessThanOrEqual(60);
    expect(at60).not.toContain('ETA');
    const at40 = fitBarLine('register', 0.54, parts, 40);
    expect(textWidth(at40)).toBeLessThanOrEqual(40);
    expect(at40.endsWith('…')).toBe(true);
    expect(cut('abcdef', 4)).toBe('abc…');
    for (let width = 20; width <= 140; width++)
      expect(textWidth(fitBarLine('change-carrier', 0.5, parts, width))).toBeLessThanOrEqual(width);
  });

  it('fits the terminal while waiting, at 80 columns, on every redraw', () => {
    const io = createTestIO({ tty: true, columns: 80 });
    let now = 0;
    const p = createProgress(io, { mode: 'bar', label: 'register', ceilingPerSecond: 120, now: () => now });
    p.update({ done: 1640, total: 3000, rejected: 0 });
    now = 16_000;
    p.waiting('service unavailable', now + 1000);
    vi.advanceTimersByTime(1000);
    for (const drawn of io.stderrText().split('\r\x1b[2K').filter(Boolean)) expect(textWidth(drawn)).toBeLessThan(80);
    p.stop();
  });

  it('a status line written while the bar is up takes its place, and the bar comes back below it', () => {
    const io = createTestIO({ tty: true, columns: 80 });
    const p = createProgress(io, { mode: 'bar', label: 'register', ceilingPerSecond: 120, now: () => 0 });
    p.update({ done: 40, total: 120, rejected: 0 });
    vi.advanceTimersByTime(200);
    io.err('network error, resuming in 1 s');
    const text = io.stderrText();
    const at = text.indexOf('network error');
    expect(text.slice(at - 5, at)).toBe('\r\x1b[2K');
    expect(text.slice(at)).toMatch(/^network error, resuming in 1 s\n\r\x1b\[2Kregister █+░+ 40\/120/);
    p.stop();
    io.err('after');
    expect(io.stderrText().endsWith('\r\x1b[2Kafter\n')).toBe(true);
  });

  it('off a terminal writes a plain line every 30 seconds', () => {
    const io = createTestIO();
    let now = 0;
    const p = createProgress(io, { mode: 'lines', label: 'register', ceilingPerSecond: 120, now: () => now });
    p.update({ done: 0, total: 1000, rejected: 0 });
    now = 29_000;
    vi.advanceTimersByTime(29_000);
    expect(io.stderrText()).toBe('');
    now = 30_000;
    p.update({ done: 300, total: 1000, rejected: 0 });
    vi.advanceTimersByTime(1000);
    expect(io.stderrText()).toBe('register: 300/1,000 (30%), 10/s, ETA 1m 10s\n');
    p.stop();
    vi.advanceTimersByTime(60_000);
    expect(io.stderrText().split('\n')).toHaveLength(2);
  });

  it('formats durations', () => {
    expect(duration(45)).toBe('45s');
    expect(duration(741)).toBe('12m 21s');
    expect(duration(7500)).toBe('2h 5m');
  });
});

const base: RunSummary = {
  operation: 'register',
  total: 1000,
  settled: 990,
  fromJournal: 400,
  accepted: 960,
  verified: 7,
  already: 20,
  rejected: 10,
  rejectedByCode: [
    { code: -18019903, message: 'carrier cannot be detected', count: 8 },
    { code: -18010012, message: 'format of invalid', count: 2 },
  ],
  invalid: 0,
  notFound: 0,
  unsettled: 10,
  leftBehind: 0,
  tagApplied: 0,
  written: 10,
  elapsedMs: 65_000,
  perSecond: 9.07,
};

describe('summaryLines', () => {
  it('counts numbers, says how many of how many when some are not done, and lists outcomes', () => {
    expect(summaryLines(base, 'rejects.csv')).toEqual([
      'register: 990 of 1,000 numbers in 1m 5s (9.1/s)',
      '  resumed: 400 done by the interrupted run before',
      '  registered         960  (7 confirmed by looking them up after a lost answer)',
      '  already registered 20',
      '  rejected           10',
      '    -18019903 carrier cannot be detected: 8',
      '    -18010012 format of invalid: 2',
      '  not done           10',
      '  10 rows written to rejects.csv',
    ]);
  });

  it('names what an interrupted run left behind, tags applied, and every row the rejects file holds', () => {
    const done = { settled: 1000, unsettled: 0, rejected: 0, rejectedByCode: [] };
    const s: RunSummary = { ...base, ...done, leftBehind: 3, tagApplied: 4, written: 3 };
    expect(summaryLines(s, 'rejects.csv').slice(-5)).toEqual([
      '  registered         960  (7 confirmed by looking them up after a lost answer)',
      '  already registered 20',
      '  tag applied        4  (to numbers registered already, free)',
      '  3 numbers of the interrupted run are not in the new file and were not sent',
      '  3 rows written to rejects.csv',
    ]);
  });

  it('names the trk command the user ran, not the API operation', () => {
    const s: RunSummary = {
      ...base,
      operation: 'stoptrack',
      total: 5,
      settled: 5,
      fromJournal: 0,
      accepted: 5,
      verified: 0,
      already: 0,
      rejected: 0,
      rejectedByCode: [],
      unsettled: 0,
      elapsedMs: 1000,
      perSecond: 5,
    };
    expect(summaryLines(s)[0]).toBe('stop: 5 numbers in 1s');
    expect(summaryLines({ ...s, operation: 'gettrackinfo' })[0]).toMatch(/^info: /);
    expect(summaryLines({ ...s, operation: 'changeinfo' })[0]).toMatch(/^update: /);
    expect(summaryLines({ ...s, operation: 'stoptrack', already: 2, accepted: 3 })).toContain('  already stopped    2');
  });
});

describe('exit codes of a run', () => {
  const z = { accepted: 0, already: 0, rejected: 0, invalid: 0, notFound: 0 };
  it(
    '0 when every item ended as asked (already in that state counts), 3 when some were rejected, 1 when none ' +
      'was done',
    () => {
      expect(exitCodeOf({ ...z, accepted: 3 })).toBe(0);
      expect(exitCodeOf({ ...z, already: 3 })).toBe(0);
      expect(exitCodeOf(z)).toBe(0);
      expect(exitCodeOf({ ...z, accepted: 2, rejected: 1 })).toBe(3);
      expect(exitCodeOf({ ...z, accepted: 2, invalid: 1 })).toBe(3);
      expect(exitCodeOf({ ...z, rejected: 2 })).toBe(1);
      expect(exitCodeOf({ ...z, invalid: 2 })).toBe(1);
    },
  );
});

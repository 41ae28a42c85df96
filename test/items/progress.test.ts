import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgress, duration, progressMode } from '../../src/items/progress.js';
import { summaryLines, type BulkSummary } from '../../src/items/results.js';
import { createTestIO } from '../../src/io.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('progress', () => {
  it('picks a bar on a terminal, lines elsewhere, nothing with --quiet', () => {
    expect(progressMode(createTestIO({ tty: true }), false)).toBe('bar');
    expect(progressMode(createTestIO(), false)).toBe('lines');
    expect(progressMode(createTestIO({ tty: true }), true)).toBe('none');
  });

  it('draws a bar with counts, rate, ETA and the rate-limit wait', () => {
    const io = createTestIO({ tty: true, columns: 120 });
    let now = 0;
    const p = createProgress(io, { mode: 'bar', label: 'register', ceilingPerSecond: 120, now: () => now });
    p.update({ done: 0, total: 12_000, rejected: 0 });
    now = 10_000;
    p.update({ done: 1200, total: 12_000, rejected: 3 });
    vi.advanceTimersByTime(250);
    let text = io.stderrText();
    expect(text).toContain('\r\x1b[2Kregister ');
    expect(text).toContain('1,200/12,000 · 10% · 120/s · ETA 1m 30s · 3 rejected');
    p.waiting('rate limited', now + 3000);
    text = io.stderrText();
    expect(text.endsWith('· rate limited, resuming in 3s')).toBe(true);
    p.stop();
    expect(io.stderrText().endsWith('\r\x1b[2K')).toBe(true);
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

describe('summaryLines', () => {
  it('lists accepted, already registered, rejected by code, and what was not done', () => {
    const s: BulkSummary = {
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
      notFound: 0,
      unsettled: 10,
      elapsedMs: 65_000,
      perSecond: 9.07,
      requests: 26,
    };
    expect(summaryLines(s, 'rejects.csv')).toEqual([
      'register: 1,000 items in 1m 5s (9.1/s), 26 requests',
      '  resumed: 400 done by the interrupted run before',
      '  registered         960  (7 confirmed by looking them up after a lost answer)',
      '  already registered 20',
      '  rejected           10',
      '    -18019903 carrier cannot be detected: 8',
      '    -18010012 format of invalid: 2',
      '  not done           10',
      '  rejected rows written to rejects.csv',
    ]);
  });

  it('names the trk command the user ran, not the API operation', () => {
    const s: BulkSummary = {
      operation: 'stoptrack',
      total: 5,
      settled: 5,
      fromJournal: 0,
      accepted: 5,
      verified: 0,
      already: 0,
      rejected: 0,
      rejectedByCode: [],
      notFound: 0,
      unsettled: 0,
      elapsedMs: 1000,
      perSecond: 5,
      requests: 1,
    };
    expect(summaryLines(s)[0]).toBe('stop: 5 items in 1s (5.0/s), 1 request');
    expect(summaryLines({ ...s, operation: 'gettrackinfo' })[0]).toMatch(/^info: /);
    expect(summaryLines({ ...s, operation: 'changeinfo' })[0]).toMatch(/^update: /);
  });
});

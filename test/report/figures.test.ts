// The pure parts of the report: quantiles from a histogram, weeks, and what the terminal draws (sparklines, bars,
// the whole report within 60, 80 and 120 columns).

import { beforeAll, describe, expect, it } from 'vitest';
import { createTestIO } from '../test-io.js';
import { compareIds, quantile, transitDays, weekOf, weeksBetween } from '../../src/report/figures.js';
import { escapeHtml } from '../../src/report/html.js';
import { buildReport } from '../../src/report/report.js';
import { printTerminalReport, sparkline, transitBar } from '../../src/report/terminal.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { loadTextWidths, textWidth } from '../../src/output/width.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NOW, writeFixtureMirror } from './fixture-mirror.js';

// Widths as a terminal draws them, as for a command laying out text for people (src/cli.ts loads them).
beforeAll(loadTextWidths);

describe('the order of group ids', () => {
  it("is English collation's, as localeCompare gave it, for carriers, lanes, both and days", () => {
    const carriers = ['0', '9', '10', '100', '1000', '3011', '21051', '190271', 'null'];
    const countries = ['null', 'CN', 'US', 'DE', 'Ua', 'ua', 'uA', 'nu', 'NULL'];
    const lanes = countries.flatMap((o) => countries.map((d) => `${o}>${d}`));
    const both = carriers.flatMap((c) => lanes.slice(0, 20).map((l) => `${c}|${l}`));
    const days = ['2026-01-05', '2025-12-29', '2026-10-01', '2026-1-5', 'null'];
    for (const ids of [carriers, lanes, both, days]) {
      const english = [...ids].sort((a, b) => a.localeCompare(b, 'en'));
      expect([...ids].reverse().sort(compareIds)).toEqual(english);
    }
  });
});

describe('quantiles by linear interpolation between the closest ranks', () => {
  it('interpolates between ranks (n - 1) p', () => {
    // 1 2 3 4: rank 1.5 → 2.5; rank 2.7 → 3.7.
    const h = [
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 1],
    ] as const;
    expect(quantile(h, 0.5)).toBe(2.5);
    expect(quantile(h, 0.9)).toBeCloseTo(3.7, 10);
    expect(quantile(h, 0)).toBe(1);
    expect(quantile(h, 1)).toBe(4);
  });

  it('reads repeated values from their counts', () => {
    // 3 3 3 8 (n 4): rank 1.5 → 3; rank 2.7 → 3 + 0.7 × 5 = 6.5.
    expect(
      quantile(
        [
          [3, 3],
          [8, 1],
        ],
        0.5,
      ),
    ).toBe(3);
    expect(
      quantile(
        [
          [3, 3],
          [8, 1],
        ],
        0.9,
      ),
    ).toBeCloseTo(6.5, 10);
    expect(quantile([[5, 1]], 0.9)).toBe(5);
    expect(quantile([], 0.5)).toBeNull();
  });

  it('gives n, p50, p90, mean, min and max rounded to two decimals', () => {
    // 1 2 2 10: mean 15 / 4 = 3.75; p90 rank 2.7 → 2 + 0.7 × 8 = 7.6.
    expect(
      transitDays([
        [1, 1],
        [2, 2],
        [10, 1],
      ]),
    ).toEqual({ n: 4, p50: 2, p90: 7.6, mean: 3.75, min: 1, max: 10 });
    expect(
      transitDays([
        [1, 2],
        [2, 1],
      ]).mean,
    ).toBe(1.33);
  });
});

describe('weeks', () => {
  it('starts a week on its Monday (UTC)', () => {
    expect(weekOf('2026-06-01')).toBe('2026-06-01');
    expect(weekOf('2026-06-07')).toBe('2026-06-01');
    expect(weekOf('2026-06-08')).toBe('2026-06-08');
    expect(weekOf('2027-01-01')).toBe('2026-12-28');
    expect(weeksBetween('2026-05-25', '2026-06-08')).toEqual(['2026-05-25', '2026-06-01', '2026-06-08']);
  });
});

describe('what a terminal draws', () => {
  it('a sparkline of weekly volumes, and a bar to the median then p90', () => {
    expect(sparkline([0, 2, 4, 8])).toBe('▁▃▅█');
    expect(sparkline([0, 0])).toBe('▁▁');
    expect(transitBar(5, 10, 20, 20)).toEqual({ median: '█████', rest: '░░░░░' });
    // A short median still shows.
    expect(transitBar(0.2, 1, 40, 10).median).toBe('█');
  });

  it('fits the whole report to 60, 80 and 120 columns', async () => {
    const store = await SqliteStore.open(path.join(mkdtempSync(path.join(tmpdir(), 'trk-report-')), 'm.db'));
    try {
      await writeFixtureMirror(store);
      for (const by of ['carrier', 'carrier,lane', 'week'] as const) {
        const r = await buildReport(
          store,
          { by, since: undefined, stuckDays: 7, parcels: 20, now: NOW },
          () => 'A carrier with a long name',
        );
        for (const columns of [60, 80, 120]) {
          const io = createTestIO({ columns, tty: true });
          await printTerminalReport(io, r, { carrierName: () => 'A carrier with a long name' });
          const lines = io.stdoutText().split('\n');
          expect(
            lines.filter((l) => textWidth(l) > columns),
            `${by} at ${columns}`,
          ).toEqual([]);
          expect(io.stdoutText()).toContain('Stuck, no news for 7 days or more: 3');
          expect(io.stdoutText()).toContain('Exceptions and failed deliveries: 3');
          expect(io.stdoutText()).toMatch(/Registered a week, 2026-05-25 to 2026-06-08, 3 weeks/);
        }
      }
    } finally {
      await store.close();
    }
  });
});

describe('the page', () => {
  it('escapes what the service and the shop wrote', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;',
    );
  });
});

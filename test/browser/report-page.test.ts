// `trk report --html` in a real browser: the built CLI writes the page of a mirror of the report fixtures, and
// headless Chromium opens it from disk with the network off. The rendered page must show its charts at a visible
// size, log no error, load nothing but itself, sort a table when a heading is clicked, and list the stuck parcels
// by number. The screenshot is kept in test-results/ (a test artefact, not tracked). Skipped, saying why, where
// no Chromium is installed.

import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite.js';
import { baseEnv, ROOT, trk } from '../e2e/helpers.js';
import { writeFixtureMirror } from '../report/fixture-mirror.js';
import { chromiumMissing, withPage } from './chromium.mjs';

const missing = chromiumMissing();
if (missing) console.warn(missing);
const ARTEFACTS = path.join(ROOT, 'test-results');

describe.skipIf(missing !== undefined)('the report page in Chromium', () => {
  let page: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-report-page-'));
    const db = path.join(dir, 'mirror.db');
    const store = await SqliteStore.open(db);
    await writeFixtureMirror(store);
    await store.close();
    page = path.join(dir, 'report.html');
    const r = await trk(['report', '--db', db, '--html', page], { env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/wrote .*report\.html \(\d+ KB\)/);
  }, 60_000);

  it('is light and whole: no script, style or font from anywhere else', async () => {
    expect(statSync(page).size).toBeLessThan(500 * 1024);
    await withPage(page, async (_p, seen) => {
      expect(seen.requests).toEqual([`file://${page}`]);
    });
  });

  it('draws its charts at a visible size with no error, sorts a table on click, lists the stuck parcels', async () => {
    await withPage(page, async (p, seen) => {
      const charts = await p.$$eval('.chart .wide svg', (svgs) =>
        svgs.map((s) => ({ ...s.getBoundingClientRect().toJSON(), shapes: s.querySelectorAll('path, rect').length })),
      );
      expect(charts).toHaveLength(3);
      for (const c of charts) {
        expect(c.width).toBeGreaterThan(400);
        expect(c.height).toBeGreaterThan(100);
        expect(c.shapes).toBeGreaterThan(5);
      }
      const carriers = () =>
        p.$$eval('#groups tbody tr', (rows) => rows.map((r) => r.querySelector('td')!.textContent));
      // 3011 has more parcels (9) than 100003 (6): first until sorted by parcels, fewest first (no carrier list here:
      // carriers go by code).
      expect(await carriers()).toEqual(['3011', '100003']);
      await p.click('#groups th:nth-child(2)');
      expect(await carriers()).toEqual(['100003', '3011']);
      await p.click('#groups th:nth-child(2)');
      expect(await carriers()).toEqual(['3011', '100003']);
      expect(await p.$eval('#groups th:nth-child(2)', (th) => th.getAttribute('aria-sort'))).toBe('descending');
      // Counted from today: every parcel still on its way has gone without news for months, the longest first.
      const stuck = await p.$$eval('#stuck tbody tr td:first-child', (cells) => cells.map((c) => c.textContent));
      expect(stuck).toEqual([
        '1Z0000000000000003',
        'RA0000000008CN',
        'RA0000000005CN',
        '1Z0000000000000004',
        'RA0000000006CN',
      ]);
      expect(await p.$$eval('#lanes tbody tr', (rows) => rows.length)).toBe(3);
      mkdirSync(ARTEFACTS, { recursive: true });
      await p.screenshot({ path: path.join(ARTEFACTS, 'report-page.png'), fullPage: true });
      expect(seen.problems).toEqual([]);
    });
  }, 60_000);
});

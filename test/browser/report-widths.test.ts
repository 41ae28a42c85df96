// Every grouping's `trk report --html` page in headless Chromium at 1280 and 390 px wide (a desktop and a phone):
// nothing wider than the window (tables stack their rows on a phone rather than scroll sideways), charts at least
// most of the window wide and drawn at a scale where their text keeps its size, the title and the transit chart
// after the page's grouping (lanes on the page by lane), and statuses in words. Screenshots go to test-results/ (a
// test artefact, not tracked). Skipped, saying why, where no Chromium is installed.

import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite.js';
import { baseEnv, ROOT, trk } from '../e2e/helpers.js';
import { writeFixtureMirror } from '../report/fixture-mirror.js';
import { chromiumMissing, withPage } from './chromium.mjs';

const missing = chromiumMissing();
const ARTEFACTS = path.join(ROOT, 'test-results');
const GROUPINGS = [
  ['carrier', 'Carrier report', 'carrier'],
  ['lane', 'Lane report', 'lane'],
  ['carrier,lane', 'Carrier and lane report', 'carrier'],
  ['week', 'Report by week of registration', 'carrier'],
  ['month', 'Report by month of registration', 'carrier'],
] as const;

/** What the page measures of itself in the browser (run there as written: the test's types have no DOM). */
const MEASURE = `(() => {
  const view = document.documentElement.clientWidth;
  const over = [...document.querySelectorAll('body *')]
    .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > view + 1)
    .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className);
  const charts = [...document.querySelectorAll('.chart svg')]
    .filter((s) => s.getClientRects().length > 0)
    .map((s) => {
      const box = s.getBoundingClientRect();
      const viewBox = s.viewBox.baseVal;
      return { width: box.width, scale: box.width / ((viewBox && viewBox.width) || box.width) };
    });
  return { view, scrollWidth: document.documentElement.scrollWidth, over, charts };
})()`;

interface Measured {
  view: number;
  scrollWidth: number;
  over: string[];
  charts: { width: number; scale: number }[];
}

describe.skipIf(missing !== undefined)('the report page at 1280 and 390 px', () => {
  const pages = new Map<string, string>();

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-report-widths-'));
    const db = path.join(dir, 'mirror.db');
    const store = await SqliteStore.open(db);
    await writeFixtureMirror(store);
    await store.close();
    for (const [by] of GROUPINGS) {
      const page = path.join(dir, `report-${by.replace(',', '-')}.html`);
      const r = await trk(['report', '--db', db, '--by', by, '--html', page], { env: baseEnv() });
      expect(r.code, r.stderr).toBe(0);
      pages.set(by, page);
    }
  }, 60_000);

  it.each(GROUPINGS)(
    'by %s: fits both widths, charts readable, titled "%s"',
    async (by, title, drawn) => {
      await withPage(pages.get(by)!, async (p, seen) => {
        for (const width of [1280, 390]) {
          await p.setViewportSize({ width, height: 900 });
          const m = (await p.evaluate(MEASURE)) as Measured;
          expect(m.scrollWidth, `${by} at ${width}`).toBeLessThanOrEqual(m.view);
          expect(m.over, `${by} at ${width}`).toEqual([]);
          expect(m.charts.length).toBeGreaterThanOrEqual(2);
          for (const c of m.charts) {
            // Most of the window wide, and text no smaller than drawn (12 px) by more than a tenth.
            expect(c.width, `${by} at ${width}`).toBeGreaterThanOrEqual(Math.min(600, 0.85 * m.view));
            expect(c.scale, `${by} at ${width}`).toBeGreaterThanOrEqual(0.9);
          }
          mkdirSync(ARTEFACTS, { recursive: true });
          const shot = `report-${by.replace(',', '-')}-${width}.png`;
          await p.screenshot({ path: path.join(ARTEFACTS, shot), fullPage: true });
        }
        expect(await p.title()).toMatch(new RegExp(`^${title}: `));
        expect(await p.$eval('h1', (h) => h.textContent)).toBe(title);
        const headings = await p.$$eval('h2', (hs) => hs.map((h) => h.textContent));
        expect(headings).toContain(`Transit time by ${drawn}`);
        // The transit chart names what it draws: lanes as "CN → US", carriers by code (no carrier list here).
        const labels = await p.$eval('.chart .wide svg', (s) => s.textContent ?? '');
        if (drawn === 'lane') expect(labels).toContain('CN → US');
        else expect(labels).toContain('3011');
        const statuses = await p.$$eval('#trouble td[data-label=status]', (tds) => tds.map((t) => t.textContent));
        expect(statuses).toContain('Exception — lost');
        expect(statuses.join(' ')).not.toMatch(/_[A-Z]/);
        expect(seen.problems).toEqual([]);
      });
    },
    60_000,
  );
});

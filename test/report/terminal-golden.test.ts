// The report in a terminal of 60, 80 and 120 columns, as golden files (test/golden/report/<width>/<grouping>.txt;
// `npx vitest run test/report/terminal-golden.test.ts -u` rewrites them, to read in review), on a mirror of the
// report fixtures read at the fixture's own time: no line wider than the terminal, headings wrapped between words,
// the columns that tell what became of the parcels (delivered, exceptions, failed) kept at every width, and every
// column left out named under its table.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { runCli } from '../../src/cli.js';
import { buildReport } from '../../src/report/report.js';
import { transitSection, volumeSection } from '../../src/report/terminal.js';
import { clock, setClock, type Clock } from '../../src/core/clock.js';
import { textWidth } from '../../src/output/width.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { baseEnv } from '../e2e/helpers.js';
import { createTestIO } from '../test-io.js';
import { NOW, writeFixtureMirror } from './fixture-mirror.js';

const WIDTHS = [60, 80, 120] as const;
const GROUPINGS = ['carrier', 'lane', 'carrier,lane', 'week'] as const;
/** The group table's columns, in order: those never left out, then the rest. */
const KEPT = ['PARCELS', 'DELIVERED', 'EXCEPTIONS', 'FAILED'];
const OPTIONAL = ['ON THE WAY', 'STUCK', 'P50', 'P90', 'ON TIME'];

let db: string;
let before: Clock;

beforeAll(async () => {
  db = path.join(mkdtempSync(path.join(tmpdir(), 'trk-report-golden-')), 'mirror.db');
  const store = await SqliteStore.open(db);
  await writeFixtureMirror(store);
  await store.close();
  // The fixture's "now": days without news and the stuck parcels are counted from it, the same every day.
  const skipping = clock();
  before = setClock({ now: () => NOW, monotonic: () => skipping.monotonic(), sleep: (ms, s) => skipping.sleep(ms, s) });
});

afterAll(() => {
  setClock(before);
});

async function reportAt(width: number, by: string): Promise<string> {
  const io = createTestIO({ columns: width, tty: true });
  const code = await runCli(['report', '--db', db, '--no-pager', '--by', by], { io, env: baseEnv() });
  expect(code, io.stderrText()).toBe(0);
  return io.stdoutText();
}

describe('the report in a terminal', () => {
  for (const width of WIDTHS) {
    it.each(GROUPINGS)(`at ${width} columns, by %s`, async (by) => {
      const text = await reportAt(width, by);
      await expect(text).toMatchFileSnapshot(`../golden/report/${width}/${by.replace(',', '-')}.txt`);
      expect(text.split('\n').filter((l) => textWidth(l) > width)).toEqual([]);
      const header = text.split('\n').find((l) => l.includes('PARCELS'))!;
      for (const name of KEPT) expect(header, `${width}: ${name}`).toContain(name);
      // Each column of the group table is shown or named as left out, never silently gone.
      const note = /Left out to fit \d+ columns: ([^(]*)\(/.exec(text.replace(/\n/g, ' '))?.[1] ?? '';
      for (const name of OPTIONAL) expect(header.includes(name) || note.includes(name), `${width}: ${name}`).toBe(true);
    });
  }

  it('wraps the headings of 16 groups (82 and 80 characters once) between words at 60 columns', async () => {
    const store = await SqliteStore.open(db);
    const r = await buildReport(
      store,
      { by: 'carrier', since: undefined, stuckDays: 7, parcels: 10, now: NOW },
      () => undefined,
    );
    await store.close();
    // Sixteen groups of the same figures: the sections draw the 12 largest and say so in their headings.
    r.groups = Array.from({ length: 16 }, (_, i) => ({ ...r.groups[i % 2]!, group: { ...r.groups[i % 2]!.group } }));
    const plain = new Chalk({ level: 0 });
    const lines = [...transitSection(r, 60, plain), ...volumeSection(r, 60, plain)];
    expect(lines.filter((l) => textWidth(l) > 60)).toEqual([]);
    expect(lines).toContain('Transit days of delivered parcels: median █, p90 ░ (the 12');
    expect(lines).toContain('Registered a week, 2026-05-25 to 2026-06-08, 3 weeks (the 12');
    expect(lines.filter((l) => l === 'largest of 16 groups)')).toHaveLength(2);
  });

  it('shows statuses in words in the parcels listed, not the service codes', async () => {
    const text = await reportAt(120, 'carrier');
    expect(text).toContain('Exception — lost');
    expect(text).not.toMatch(/\b(Exception|DeliveryFailure)_\w+/);
  });
});

// `trk register -f` of a few thousand rows as a person at a terminal runs it, in a pseudo-terminal of 60, 80 and
// 120 columns (test/e2e/terminal.ts): the progress bar drawn and redrawn in place on stderr, never wider than the
// terminal and gone before the summary; the summary and notes wrapped to the width; stdout redirected gets the
// data and nothing of the bar; and the emulator holds every number once. The piped and cron forms of the same
// run are in items.e2e.test.ts and engine.e2e.test.ts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/output/width.js';
import { numbers, startEmulator, type Emulator } from './helpers.js';
import { HAS_SCRIPT, trkInTerminal, type DrawnResult } from './terminal.js';

if (!HAS_SCRIPT) console.warn('progress.e2e: util-linux `script` cannot run a pseudo-terminal here; skipped');

const UNIQUE = 2000;
const REPEATED = 50;
const OTHER = 100;
const TOTAL = UNIQUE + OTHER;
/** A bar frame as progress.ts draws it: the line taken back (`\r`, erase line), then label, bar and counts. */
const FRAME = /\r\x1b\[2Kregister [█░]+ ([\d,]+)\/2,100 · \d+%/g;

/** A shop export: numbers with their carrier, some rows repeated (one per line item), some carriers "Other". */
function shopExport(list: readonly string[]): string {
  const rows = [
    'number,carrier',
    ...list.slice(0, UNIQUE).map((n) => `${n},3011`),
    ...list.slice(0, REPEATED).map((n) => `${n},3011`),
    ...list.slice(UNIQUE, TOTAL).map((n) => `${n},Other`),
  ];
  return `${rows.join('\n')}\n`;
}

/** The words of a screen, however they were wrapped. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

/** Every piece of text the terminal was given between two line starts: each frame of the bar, each line. */
function drawn(raw: string): string[] {
  return raw.split(/\r\n|\n|\r|\x1b\[2K/).map((piece) => stripVTControlCharacters(piece));
}

function expectFits(r: DrawnResult, columns: number): void {
  // Only a single word longer than the terminal (a path, kept whole to be copied) may be wider.
  const tooWide = (piece: string) => textWidth(piece) > columns && /\S\s+\S/.test(piece);
  const wide = drawn(r.raw).filter(tooWide);
  expect(wide, `drawn wider than ${columns} columns`).toEqual([]);
  const lines = r.screen.split('\n');
  expect(lines.filter(tooWide), `final screen at ${columns} columns:\n${r.screen}`).toEqual([]);
}

/** The bar was drawn, redrawn with growing counts, and taken back before the summary. */
function expectBar(r: DrawnResult): void {
  const counts = [...r.raw.matchAll(FRAME)].map((m) => Number(m[1]!.replace(/,/g, '')));
  expect(counts.length, r.raw.slice(0, 2000)).toBeGreaterThanOrEqual(5);
  expect(new Set(counts).size).toBeGreaterThanOrEqual(3);
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
  expect(r.raw).toMatch(/\r\x1b\[2Kregister: 2,100 numbers in /);
  expect(r.screen).not.toMatch(/[█░]/);
  expect(r.screen).toMatch(/^register: 2,100 numbers in (\d+m )?\d+s( \(\d+\/s\))?$/m);
  expect(r.screen).toMatch(/^ {2}registered {9}2,100$/m);
}

/** Every number of the export is registered at the emulator, once (asked of the emulator, not of trk). */
function expectRegistered(emu: Emulator, list: readonly string[]): void {
  const store = emu.sandbox.account.store;
  const counts = list.map((n) => store.forNumber(n).length);
  expect(counts.filter((c) => c !== 1).length, 'numbers not registered exactly once').toBe(0);
  expect(store.size).toBe(TOTAL);
}

async function withRun(columns: number, test: (emu: Emulator, dir: string, list: string[]) => Promise<void>) {
  const emu = await startEmulator({ speed: 0 });
  try {
    const dir = mkdtempSync(path.join(tmpdir(), `trk-progress-${columns}-`));
    await test(emu, dir, numbers(TOTAL + 100));
  } finally {
    await emu.close();
  }
}

describe.skipIf(!HAS_SCRIPT)('register -f with its progress bar in a terminal', () => {
  for (const columns of [60, 80]) {
    const name = `at ${columns} columns: the bar in place, then the summary and notes wrapped, every number registered`;
    it.concurrent(name, async () => {
      await withRun(columns, async (emu, dir, list) => {
        const file = path.join(dir, 'orders_export.csv');
        writeFileSync(file, shopExport(list));
        const r = await trkInTerminal(['register', '-f', file], { env: emu.env, columns, timeoutMs: 150_000 });
        expect(r.code, r.screen).toBe(0);
        expectBar(r);
        expectFits(r, columns);
        expect(words(r.screen)).toContain(`${REPEATED} repeated rows sent once`);
        expect(words(r.screen)).toContain(
          `${OTHER} rows named no carrier ("Other"): sent without one, for the service to detect`,
        );
        expectRegistered(emu, list.slice(0, TOTAL));
        if (columns !== 60) return;
        // The file grows, with two bad rows: what was sent is not sent again, and the lines saying so, the
        // rejects file's among them, fit the terminal too.
        writeFileSync(file, `${shopExport(list)}${list.slice(TOTAL).join(',3011\n')},3011\nAB,3011\nCD,3011\n`);
        const again = await trkInTerminal(['register', '-f', file, '--skip-invalid'], {
          env: emu.env,
          columns,
          timeoutMs: 60_000,
        });
        expect(again.code, again.screen).toBe(3);
        expectFits(again, columns);
        // The first run's repeats among the rows it went past, and its notes not said again.
        expect(words(again.screen)).toMatch(/ 2,150 rows already sent by the run of \d{4}-\d\d-\d\d; 100 new/);
        expect(words(again.screen)).not.toMatch(/repeated rows|named no carrier/);
        expect(words(again.screen)).toMatch(/ 2 rows written to \/\S+/);
        expect(emu.sandbox.account.store.size).toBe(TOTAL + 100);
      });
    }, 180_000);
  }

  it.concurrent('at 120 columns with stdout redirected: the data in the file, nothing of the bar in it', async () => {
    await withRun(120, async (emu, dir, list) => {
      const file = path.join(dir, 'orders_export.csv');
      writeFileSync(file, shopExport(list));
      const out = path.join(dir, 'out.json');
      const r = await trkInTerminal(['register', '-f', file, '--json'], {
        env: emu.env,
        columns: 120,
        stdoutFile: out,
        timeoutMs: 150_000,
      });
      expect(r.code, r.screen).toBe(0);
      expectBar(r);
      expectFits(r, 120);
      const stdout = readFileSync(out, 'utf8');
      expect(stdout).not.toMatch(/[\r\x1b█░]|ETA|register:/);
      const doc = JSON.parse(stdout) as { accepted: { number: string }[]; rejected: unknown[] };
      expect(doc.accepted.map((a) => a.number).sort()).toEqual(list.slice(0, TOTAL).sort());
      expect(doc.rejected).toEqual([]);
      // The JSON went to the file only: the terminal shows none of it.
      expect(r.screen).not.toContain('"accepted"');
      expectRegistered(emu, list.slice(0, TOTAL));
    });
  }, 180_000);
});

// Status lines in a pseudo-terminal of 60, 80 and 120 columns (test/e2e/terminal.ts): wrapped between words,
// never inside a word or a path. The summary of `sync --full`, and a run's summary naming its rejects file deep in
// a long state folder (a path wider than the terminal: a line of its own from the first column, never broken).
// Golden files in test/golden/terminal/<width>/ (`-u` rewrites them), times, counts of requests, temporary names
// and timestamps made constant without changing any length.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbers, startEmulator, trk, type Emulator } from './helpers.js';
import { hasScript, trkInTerminal } from './terminal.js';

let emu: Emulator;
let env: NodeJS.ProcessEnv;
let home: string;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
  home = mkdtempSync(path.join(tmpdir(), 'trk-wrap-'));
  const state = path.join(home, 'state-of-the-shop', 'kept-for-the-nightly-exports-of-every-store');
  env = { ...emu.env, TRK_STATE_DIR: state };
  const r = await trk(['-q', 'register', ...numbers(12, 'LA'), '--carrier', '3011'], { env });
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await emu?.close();
});

/** Lengths kept, so that the golden holds the layout: temporary names, digits of times and counts. */
function constant(screen: string): string {
  return (
    screen
      .split(home)
      .join(home.replace(/[^/]/g, 'x'))
      .replace(/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d/g, '2026-01-01T00-00-00')
      .replace(/ in \d+(\.\d+)?s\b/g, (m) => m.replace(/\d/g, '9'))
      // A count of requests wrapped onto the next line too.
      .replace(/\(\d+\s+requests?\)/g, (m) => m.replace(/\d/g, '9'))
      .replace(/\(\d+(\.\d+)?\/s\)/g, (m) => m.replace(/\d/g, '9'))
  );
}

const shown = (screen: string) => screen.split('\n').filter((l) => l.trim() !== '');
/** The words of the lines, in order, as one text. */
const words = (lines: readonly string[]) => lines.join(' ').split(/\s+/).filter(Boolean).join(' ');

describe.runIf(hasScript())('status lines at 60, 80 and 120 columns', () => {
  it.each([60, 80, 120])('%i columns: the summary of sync --full breaks between words', async (columns) => {
    const db = path.join(home, `mirror-${columns}.db`);
    const r = await trkInTerminal(['sync', '--full', '--db', db], { env, columns });
    expect(r.code, r.screen).toBe(0);
    const lines = shown(r.screen);
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(columns);
    expect(words(lines)).toMatch(/^full sync: 12 records listed \(12 new\), details of \d+, \d+ status changes? in /);
    await expect(constant(lines.join('\n'))).toMatchFileSnapshot(`../golden/terminal/${columns}/sync-full.txt`);
  });

  it.each([60, 80, 120])('%i columns: the rejects file, deeper than the line is wide, stays whole', async (columns) => {
    const dir = path.join(home, `input-${columns}`);
    mkdirSync(dir);
    const file = path.join(dir, 'orders-exported-by-the-shop.csv');
    writeFileSync(
      file,
      `number,carrier\n${numbers(3, { 60: 'LB', 80: 'LC', 120: 'LD' }[columns]).join(',3011\n')},3011\nAB,3011\n`,
    );
    const stdoutFile = path.join(dir, 'registered.txt');
    const r = await trkInTerminal(['register', '-f', file, '--skip-invalid'], { env, columns, stdoutFile });
    expect(r.code, r.screen).toBe(3);
    const lines = shown(r.screen);
    const rejects = lines.find((l) => l.includes('/rejects/'))!;
    // On a line of its own from the first column: the terminal folds it, a triple click copies it whole.
    expect(rejects).toMatch(
      new RegExp(`^${home}/state-of-the-shop/.*/rejects/[-\\dT]+-register-orders-[\\w-]+\\.csv$`),
    );
    // Lines of several words fit; a single word wider than the line (a path) starts at the first column.
    for (const l of lines) {
      if (/\S\s+\S/.test(l)) expect(l.length, l).toBeLessThanOrEqual(columns);
      else if (l.length > columns) expect(l, l).toMatch(/^\S/);
    }
    expect(words(lines)).toContain(`1 row written to ${rejects}`);
    await expect(constant(lines.join('\n'))).toMatchFileSnapshot(`../golden/terminal/${columns}/rejects-path.txt`);
  });
});

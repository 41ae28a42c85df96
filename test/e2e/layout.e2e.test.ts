// Tables laid out for the terminal, in a pseudo-terminal of 60, 80 and 120 columns (test/e2e/terminal.ts): a list
// whose later pages hold longer numbers and carrier names than its first, `trk runs` over long paths, rejection
// messages, and the page counter of `list --tag` before the pager starts.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbers, startEmulator, trk, type Emulator } from './helpers.js';
import { fakePager, hasScript, trkInTerminal } from './terminal.js';

let emu: Emulator;
/** Carrier names from the emulator's lists. */
let env: NodeJS.ProcessEnv;
const s10 = numbers(45, 'LA');
const usps = ['9400111899223000000001', '9400111899223000000002', '9400111899223000000003'];
const correios = 'LX123456785BR';

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
  env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
  // The carrier list in the cache: tables show names beside the codes.
  expect((await trk(['-q', 'carriers', 'correios'], { env })).code).toBe(0);
  // The first page (40 records) holds a Correios number and S10 numbers of China Post; the longer numbers come
  // after.
  for (const [list, carrier] of [
    [[correios], '2151'],
    [s10, '3011'],
    [usps, '21051'],
  ] as const) {
    const r = await trk(
      ['-q', 'register', ...list, '--carrier', carrier, '--tag', carrier === '21051' ? 'late-1' : 'early'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await emu?.close();
});

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

/** Where each header starts on the header line. */
function starts(header: string): Map<string, number> {
  const at = new Map<string, number>();
  for (const m of header.matchAll(/\S+(?: \S+)*/g)) at.set(m[0], m.index);
  return at;
}

/** Whether a cell starts at `column` of `line`: text there, a blank (or the line's start) before it. */
const startsAt = (line: string, column: number) =>
  line[column] !== undefined && line[column] !== ' ' && (column === 0 || line[column - 1] === ' ');

describe.runIf(hasScript())('trk list at 60, 80 and 120 columns, later pages longer than the first', () => {
  it.each([60, 80, 120])('%i columns: every line fits, CARRIER is kept, the statuses stay aligned', async (columns) => {
    const r = await trkInTerminal(['list', '--all', '--no-pager'], { env, columns });
    expect(r.code, r.screen).toBe(0);
    const shown = lines(r.screen).filter((l) => /^(NUMBER|LA|9400|LX)/.test(l));
    const firstPage = shown.slice(1, 41);
    expect(shown).toHaveLength(1 + 45 + 3 + 1);
    for (const l of shown) expect(l.length, l).toBeLessThanOrEqual(columns);
    const at = starts(shown[0]!);
    expect([...at.keys()].slice(0, 4)).toEqual(['NUMBER', 'CARRIER', 'STATUS', 'TRACKING']);
    for (const l of shown.slice(1)) expect(startsAt(l, at.get('STATUS')!), `${l}\n${shown[0]}`).toBe(true);
    const longer = shown.filter((l) => l.startsWith('9400'));
    if (columns >= 80) {
      // 22-character numbers fit their column: the carrier starts where its header does, and so does every column.
      for (const l of longer)
        for (const [name, column] of at) expect(startsAt(l, column), `${name}: ${l}\n${shown[0]}`).toBe(true);
      expect(shown.find((l) => l.startsWith(correios))).toContain('2151 Correios Brazil');
    }
    // A carrier of the first page is cut only when the columns do not fit as they are: never while STATUS keeps
    // room beyond the first page's statuses.
    if (firstPage.some((l) => /\d+ [^ ]*…/.test(l))) {
      const statusWidth = at.get('TRACKING')! - at.get('STATUS')! - 2;
      const widest = Math.max(...firstPage.map((l) => l.slice(at.get('STATUS')!).split(/ +/)[0]!.length));
      expect(statusWidth).toBe(widest);
    }
  });
});

describe.runIf(hasScript())('trk runs at 60, 80 and 120 columns', () => {
  /** A state folder of its own holding two runs over files deep in a long path; `trk runs` only reads it. */
  let runsEnv: NodeJS.ProcessEnv;
  beforeAll(async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'trk-runs-'));
    runsEnv = { ...env, TRK_STATE_DIR: path.join(home, 'state') };
    const dir = path.join(home, 'shop', 'exports', 'orders', '2026', 'november', 'daily');
    mkdirSync(dir, { recursive: true });
    for (const i of [1, 2]) {
      const file = path.join(dir, `daily-orders-${i}.csv`);
      writeFileSync(file, `number\n${s10.slice(i * 3, i * 3 + 3).join('\n')}\n`);
      const r = await trk(['-q', 'register', '-f', file, '--carrier', '3011'], { env: runsEnv });
      expect(r.code, r.stderr).toBe(0);
    }
  });

  it.each([60, 80, 120])('%i columns: no row wraps; the input keeps its file name', async (columns) => {
    const r = await trkInTerminal(['runs'], { env: runsEnv, columns });
    expect(r.code, r.screen).toBe(0);
    const shown = lines(r.screen);
    expect(shown).toHaveLength(3);
    expect(shown[0]).toMatch(/^ID +STATE .*INPUT +.*DONE/);
    for (const l of shown) expect(l.length, l).toBeLessThanOrEqual(columns);
    for (const l of shown.slice(1)) expect(l).toMatch(/daily-orders-[12]\.csv .*\b3 of 3\b/);
  });
});

describe.runIf(hasScript())('rejection messages in a table', () => {
  it.each([60, 80])('%i columns: the message wraps, never cut', async (columns) => {
    const r = await trkInTerminal(['info', 'XX999999999XX', '--no-pager'], { env, columns });
    expect(r.code, r.screen).toBe(1);
    const shown = lines(r.screen).filter((l) => !/^found/.test(l));
    for (const l of shown) expect(l.length, l).toBeLessThanOrEqual(columns);
    const message = starts(shown[0]!).get('MESSAGE')!;
    const text = shown
      .slice(1)
      .map((l) => l.slice(message).trim())
      .join(' ');
    expect(text).toBe("The tracking number 'XX999999999XX' does not register, please register first.");
    expect(r.screen).not.toContain('…');
  });
});

describe.runIf(hasScript())('list --tag through the pager', () => {
  it('shows the page counter until the first match starts the pager', async () => {
    const pager = fakePager();
    // Real time, as the spawned trk waits: the second page is still on its way when the first one is counted.
    emu.sandbox.setFaults({ latencyMs: 300 });
    try {
      const r = await trkInTerminal(['list', '--tag', 'late-*'], {
        env: { ...env, TRK_PAGER: pager.command },
        columns: 80,
      });
      expect(r.code, r.screen).toBe(0);
      expect(r.raw).toContain('page 1 of 2 · 0 matches');
      expect(r.screen).toContain('3 records');
    } finally {
      emu.sandbox.setFaults({ latencyMs: 0 });
    }
  });
});

// trk list against the emulator: every page, filters, formats.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorList, numbers, parseCsv, startEmulator, trk, type Emulator } from './helpers.js';

const DAY = 86_400_000;
let emu: Emulator;
const registered = numbers(130, 'LS');

beforeAll(async () => {
  // Simulated time stands still unless advanced: the emulator's answer and trk's are taken at the same moment.
  emu = await startEmulator({ speed: 0 });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'trk-list-')), 'numbers.txt');
  writeFileSync(file, `${registered.join('\n')}\n`);
  const r = await trk(['register', '-f', file, '--carrier', '3011', '-q'], { env: emu.env });
  expect(r.code).toBe(0);
  // Let the shipments move: a few weeks in, many are delivered.
  for (let i = 0; i < 26; i++) await emu.sandbox.advance(DAY);
}, 120_000);

afterAll(async () => {
  await emu?.close();
});

describe('trk list', () => {
  it('--status Delivered --json prints exactly the matching records across all pages', async () => {
    const expected = await emulatorList(emu, { package_status: 'Delivered' });
    expect(expected.length).toBeGreaterThan(40);
    const r = await trk(['list', '--status', 'Delivered', '--json'], { env: emu.env });
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(got).toEqual(expected);
    expect(got.every((x) => x.package_status === 'Delivered')).toBe(true);
  });

  it('without filters lists every registered number once', async () => {
    const r = await trk(['list', '--json'], { env: emu.env });
    expect(r.code).toBe(0);
    const got = (JSON.parse(r.stdout) as { number: string }[]).map((x) => x.number).sort();
    expect(got).toEqual([...registered].sort());
  });

  it('CSV: a header and one row per record, the same records as JSON', async () => {
    const expected = await emulatorList(emu, { package_status: 'Delivered' });
    const r = await trk(['list', '--status', 'Delivered', '--csv'], { env: emu.env });
    expect(r.code).toBe(0);
    const rows = parseCsv(r.stdout);
    expect(rows.map((x) => x.number)).toEqual(expected.map((x) => x.number));
    expect(rows.every((x) => x.status === 'Delivered')).toBe(true);
  });

  it('table: a header line and one line per record', async () => {
    const r = await trk(['list', '--tracking', 'Tracking', '-o', 'table'], { env: emu.env });
    expect(r.code).toBe(0);
    const expected = await emulatorList(emu, { tracking_status: 'Tracking' });
    const lines = r.stdout
      .trim()
      .split('\n')
      .filter((l) => /^\s*LS\d/.test(l) || /\bLS\d{9}CN\b/.test(l));
    expect(lines).toHaveLength(expected.length);
    expect(r.stdout).toMatch(/NUMBER/);
  });

  it('piped without a format: tab-separated rows, no header', async () => {
    const r = await trk(['list', '--limit', '3'], { env: emu.env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.split('\t').length > 5 && l.startsWith('LS'))).toBe(true);
  });

  it('--page and --limit', async () => {
    const all = await emulatorList(emu, {});
    const page2 = await trk(['list', '--page', '2', '--json'], { env: emu.env });
    expect((JSON.parse(page2.stdout) as unknown[]).length).toBe(40);
    expect(JSON.parse(page2.stdout)).toEqual(all.slice(40, 80));
    const limited = await trk(['list', '--limit', '45', '--json'], { env: emu.env });
    expect(JSON.parse(limited.stdout)).toEqual(all.slice(0, 45));
  });

  it('a filter nothing matches: an empty array, exit 0', async () => {
    const r = await trk(['list', '--number', 'ZZ999999999ZZ,YY999999999YY', '--json'], { env: emu.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('bad filters are usage errors and send nothing', async () => {
    const before = emu.requests();
    for (const args of [
      ['list', '--registered-since', 'last tuesday'],
      ['list', '--status', 'Lost'],
      ['list', '--registered-since', '1d', '--registered-until', '3d'],
    ]) {
      const r = await trk(args, { env: emu.env });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^trk: /);
    }
    expect(emu.requests()).toBe(before);
  });
});

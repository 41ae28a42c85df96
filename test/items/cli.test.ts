// The item engine through the built CLI: `trk <command> -f FILE` with --dry-run, --rejects, --json, stdin, and
// `trk list --number` beyond 200 numbers. `npm run build` first (npm test does).

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv, startEmulator, trk, type Emulator } from '../e2e/helpers.js';
import { numberList } from './helpers.js';

let emu: Emulator;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator();
  // Carrier names would need the carrier list: point its address at nothing, so no test reaches out.
  emu.env.TRK_RES_URL = 'http://127.0.0.1:9';
  dir = mkdtempSync(path.join(tmpdir(), 'trk-bulk-cli-'));
});

afterAll(async () => {
  await emu?.close();
});

const run = (args: string[], input?: string) => trk(args, { env: emu.env, ...(input === undefined ? {} : { input }) });

describe('trk <command> -f FILE', () => {
  it('--dry-run --json prints the plan and sends nothing', async () => {
    const file = path.join(dir, 'plan.csv');
    writeFileSync(
      file,
      `number,lang\n${numberList(90)
        .map((n, i) => `${n},${i % 3 === 0 ? 'en' : ''}`)
        .join('\n')}\n`,
    );
    const before = emu.requests();
    const r = await run(['register', '-f', file, '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      operation: 'register',
      items: 90,
      requests: 3,
      perRequest: 40,
      units: 120,
      quota: { remaining: expect.any(Number) },
      registered: { items: 0, units: 0 },
    });
    expect(r.stderr).toContain('nothing was sent');
    // The quota is read and the numbers looked up (both free), to predict a refusal; nothing else is sent.
    expect(emu.requests()).toBe(before + 2);
  });

  it('registers, writes the rejected rows, prints --json, exits 3', async () => {
    const file = path.join(dir, 'in.csv');
    const rejects = path.join(dir, 'rejects.csv');
    const [a, b] = numberList(2, 500);
    writeFileSync(file, `Number,Tag\n${a},first\nXX00000077,bad one\n${b},\n`);
    const r = await run(['register', '-f', file, '--tag', 'default', '--rejects', rejects, '--json']);
    expect(r.code, r.stderr).toBe(3);
    const out = JSON.parse(r.stdout) as { accepted: { number: string; tag: string }[]; rejected: { number: string }[] };
    expect(out.accepted.map((x) => [x.number, x.tag]).sort()).toEqual([
      [a, 'first'],
      [b, 'default'],
    ]);
    expect(out.rejected.map((x) => x.number)).toEqual(['XX00000077']);
    expect(parseCsv(readFileSync(rejects, 'utf8'))).toEqual([
      {
        Number: 'XX00000077',
        Tag: 'bad one',
        input_line: '3',
        error_code: '-18019903',
        error_message: 'carrier cannot be detected',
      },
    ]);
    expect(r.stderr).toMatch(/registered\s+2/);
    expect(r.stderr).toMatch(/-18019903 carrier cannot be detected: 1/);
  });

  it(
    'reads stdin with -f -, counts already registered numbers apart, and stays quiet on stdout without ' + 'a format',
    async () => {
      const [a, b] = numberList(2, 500);
      const [c] = numberList(1, 600);
      const r = await run(['register', '-f', '-'], `${a}\n${b}\n${c}\n`);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/registered\s+1/);
      expect(r.stderr).toMatch(/already registered 2/);
    },
  );

  it('one problem is one error line; nothing is sent', async () => {
    const file = path.join(dir, 'one.csv');
    writeFileSync(file, `number,tag\n${numberList(1, 700)[0]},${'x'.repeat(101)}\n`);
    const before = emu.requests();
    const r = await run(['register', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `trk: ${file} line 2: tag longer than 100 characters (101): fix it and run again, or pass --skip-invalid ` +
        `to send the rest; nothing was sent`,
    ]);
    expect(emu.requests()).toBe(before);
  });

  it('delete -f asks first: refused without --yes off a terminal, done with it', async () => {
    const [n] = numberList(1, 600);
    const refused = await run(['delete', '-f', '-'], `${n}\n`);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('deleting 1 number needs confirmation');
    const done = await run(['delete', '-f', '-', '--yes'], `${n}\n`);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/deleted\s+1/);
  });

  it('numbers as arguments and -f together are refused', async () => {
    const r = await run(['stop', 'RR000000001CN', '-f', '-'], 'RR000000002CN\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('give the numbers as arguments or with -f, not both');
  });
});

describe('trk list --number beyond 200 numbers', () => {
  it('asks 200 at a time and prints every record once', async () => {
    const wanted = numberList(230, 1000);
    const file = path.join(dir, 'many.txt');
    writeFileSync(file, `${wanted.join('\n')}\n`);
    const reg = await run(['register', '-f', file, '--carrier', '3011', '-q']);
    expect(reg.code, reg.stderr).toBe(0);
    const r = await run(['list', '--number', [...wanted, 'RR999999999CN'].join(','), '--csv']);
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout);
    expect(rows.map((x) => x.number).sort()).toEqual([...wanted].sort());
  });
});

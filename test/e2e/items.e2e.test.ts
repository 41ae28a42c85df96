// Item commands against the emulator: success, rejection (exit 3, the rejected items shown) and bad input
// (exit 2, nothing sent), in table, JSON and CSV.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbers, parseCsv, startEmulator, trk, type Emulator, type Result } from './helpers.js';

const DAY = 86_400_000;
let emu: Emulator;
let hook: Server;
const hookBodies: string[] = [];

interface ItemsJson {
  accepted: { number: string; carrier?: number }[];
  already: { number: string; error: { code: number; message: string } }[];
  rejected: { number: string; error: { code: number; message: string } }[];
}

const json = (r: Result) => JSON.parse(r.stdout) as ItemsJson;
const run = (args: string[], input?: string) => trk(args, { env: emu.env, ...(input === undefined ? {} : { input }) });

/** Runs a command that must fail as a usage error: exit 2, one line on stderr, no request reaching the emulator. */
async function expectRefused(args: string[], message: RegExp, input?: string) {
  const before = emu.requests();
  const r = await run(args, input);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(emu.requests()).toBe(before);
}

beforeAll(async () => {
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      hookBodies.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const port = (hook.address() as AddressInfo).port;
  emu = await startEmulator({ speed: 0, webhookUrl: `http://127.0.0.1:${port}/hook` });
});

afterAll(async () => {
  await emu?.close();
  await new Promise((r) => hook?.close(r));
});

describe('register', () => {
  const batch = numbers(45, 'RG');

  it('JSON: every number accepted over two requests, exit 0', async () => {
    const r = await run(['register', ...batch, '--carrier', '3011', '--tag', 'e2e', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(out.accepted.map((a) => a.number)).toEqual(batch);
    expect(out.rejected).toEqual([]);
    expect(r.stderr).toContain('registered 45');
  });

  it('CSV: registering again is "already" with the service\'s code, as counted; exit 0 as with -f', async () => {
    const fresh = numbers(1, 'RN')[0]!;
    const r = await run(['register', batch[0]!, fresh, '--carrier', '3011', '--csv']);
    expect(r.code).toBe(0);
    const rows = parseCsv(r.stdout);
    expect(rows.find((x) => x.number === fresh)).toMatchObject({ result: 'accepted' });
    expect(rows.find((x) => x.number === batch[0])).toMatchObject({ result: 'already', error_code: '-18019901' });
    expect(r.stdout).not.toContain('rejected');
    expect(r.stderr).toContain('registered 1, already registered 1');
    const viaFile = await run(['register', '-f', '-', '--carrier', '3011'], `${batch[0]}\n`);
    expect(viaFile.code).toBe(r.code);
  });

  it("table: from stdin, the row of a number registered already says so, with the service's code", async () => {
    const r = await run(['register', '-o', 'table', '--carrier', '3011'], `${batch[1]}\n`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/NUMBER/);
    expect(r.stdout).toMatch(new RegExp(`${batch[1]}.* already +-18019901`));
    expect(r.stdout).not.toContain('rejected');
  });

  it('every format: a number registered already is "already", one the service refused is "rejected"', async () => {
    const [old, fresh] = [batch[2]!, numbers(1, 'RX')[0]!];
    const register = (...format: string[]) => run(['register', old, '--carrier', '3011', ...format]);
    const piped = await register();
    expect(piped.stdout).toMatch(new RegExp(`^${old}\t3011\t\talready\t-18019901\t`, 'm'));
    expect(parseCsv((await register('--csv')).stdout)[0]).toMatchObject({ number: old, result: 'already' });
    for (const table of ['table', 'wide'])
      expect((await register('-o', table)).stdout).toMatch(new RegExp(`^${old} +3011 +already +-18019901 `, 'm'));
    const doc = json(await register('--json'));
    expect([doc.accepted, doc.rejected]).toEqual([[], []]);
    expect(doc.already).toEqual([
      expect.objectContaining({ number: old, error: expect.objectContaining({ code: -18019901 }) }),
    ]);
    const line = JSON.parse((await register('-o', 'ndjson')).stdout) as { result: string; number: string };
    expect([line.result, line.number]).toEqual(['already', old]);
    const picked = await register('--columns', 'number,result', '--json');
    expect(JSON.parse(picked.stdout)).toEqual([{ number: old, result: 'already' }]);
    // Only what the service refused goes to the rejects file, and is called rejected: a carrier it does not have
    // (trk checks codes only against a cached list, and there is none here).
    const rejects = path.join(mkdtempSync(path.join(tmpdir(), 'trk-outcomes-')), 'rejects.csv');
    const input = `number,carrier\n${old},3011\n${fresh},3011\nXX000000001XX,999999\n`;
    const mixed = await run(['register', '-f', '-', '--rejects', rejects, '--csv'], input);
    expect(mixed.code, mixed.stderr).toBe(3);
    expect(parseCsv(mixed.stdout).map((x) => [x.number, x.result])).toEqual([
      [fresh, 'accepted'],
      [old, 'already'],
      ['XX000000001XX', 'rejected'],
    ]);
    expect(mixed.stderr).toMatch(/already registered +1$/m);
    expect(mixed.stderr).toMatch(/rejected +1$/m);
    expect(parseCsv(readFileSync(rejects, 'utf8')).map((x) => x.number)).toEqual(['XX000000001XX']);
  });

  it('bad input: a malformed number, a malformed file, a missing file, v2.1 fields on v2', async () => {
    await expectRefused(
      ['register', 'RR123456789CN', 'no!', '--csv'],
      /^trk: argument 2: number "no!" is not 5 to 50 letters, digits or hyphens/,
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-bad-'));
    const bad = path.join(dir, 'bad.txt');
    writeFileSync(bad, 'RR123456789CN\n\u0001\u200bgarbage line\nAB\n');
    {
      // -f takes the bulk path: every problem with its line, then one error line; nothing sent.
      const before = emu.requests();
      const r = await run(['register', '-f', bad, '--csv']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines[0]).toMatch(
        /bad\.txt line 2: number "\\u0001\\u200bgarbage line" is not 5 to 50 letters, digits or hyphens$/,
      );
      expect(lines[1]).toMatch(/bad\.txt line 3: number "AB" is not 5 to 50 letters, digits or hyphens$/);
      expect(lines[2]).toMatch(/^trk: 2 problems in .*bad\.txt; nothing was sent/);
      expect(emu.requests()).toBe(before);
    }
    await expectRefused(
      ['register', '-f', path.join(dir, 'missing.txt')],
      /^trk: cannot read .*missing.txt: no such file/,
    );
    await expectRefused(
      ['register', 'RR123456789CN', '--order-no', 'A1'],
      /^trk: the v2 API cannot send --order-no: use --api-version v2.1/,
    );
    await expectRefused(
      ['register', 'RR123456789CN', '--lang', 'xx'],
      /^trk: option '--lang <code>' argument 'xx' is invalid/,
    );
  });
});

describe('stop, retrack, delete, push, update, change-carrier, info', () => {
  const [a, b, c, d] = numbers(4, 'ST');

  beforeAll(async () => {
    const r = await run(['register', a!, b!, c!, d!, '--carrier', '3011', '-q']);
    expect(r.code).toBe(0);
    // First results arrive and the carrier is settled.
    await emu.sandbox.advance(2 * DAY);
  });

  it('stop: CSV success, then JSON rejection of a number not tracked', async () => {
    const ok = await run(['stop', a!, '--csv']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(parseCsv(ok.stdout)).toEqual([expect.objectContaining({ number: a, result: 'accepted' })]);
    // Stopped already: what stop asks for, so done (exit 0), and shown with the service's code.
    const again = await run(['stop', a!, '--json']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already stopped 1');
    expect(json(again).rejected).toEqual([]);
    expect(json(again).already).toEqual([
      expect.objectContaining({ number: a, error: expect.objectContaining({ code: -18019906 }) }),
    ]);
    const csv = await run(['stop', a!, 'UNREG0000005', '--csv']);
    expect(parseCsv(csv.stdout).map((x) => [x.number, x.result])).toEqual([
      [a, 'already'],
      ['UNREG0000005', 'rejected'],
    ]);
  });

  it('retrack: table success, then rejection (once only)', async () => {
    const ok = await run(['retrack', a!, '-o', 'table']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(new RegExp(`${a}.*accepted`));
    await run(['stop', a!, '-q']);
    const again = await run(['retrack', a!, '--json']);
    // Stopped and re-tracked once already: nothing done, so 1.
    expect(again.code).toBe(1);
    expect(json(again).rejected[0]!.error.code).toBe(-18019905);
  });

  it('update: JSON success, CSV rejection of an unregistered number', async () => {
    const ok = await run(['update', b!, '--tag', 'moved', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok).accepted).toEqual([expect.objectContaining({ number: b })]);
    const missing = await run(['update', 'UNREG0000001', '--tag', 'x', '--csv']);
    expect(missing.code).toBe(1);
    expect(parseCsv(missing.stdout)[0]).toMatchObject({
      number: 'UNREG0000001',
      result: 'rejected',
      error_code: '-18019902',
    });
    await expectRefused(['update', b!], /^trk: nothing to change: give --tag, --param or --lang/);
  });

  it('change-carrier: JSON success, rejection for an unregistered number', async () => {
    const ok = await run(['change-carrier', c!, '--to', '190271', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok).accepted).toEqual([expect.objectContaining({ number: c, carrier: 190271 })]);
    const missing = await run(['change-carrier', 'UNREG0000002', '--to', '190271', '--json']);
    expect(missing.code).toBe(1);
    expect(json(missing).rejected[0]!.number).toBe('UNREG0000002');
    await expectRefused(['change-carrier', c!], /^trk: nothing to change/);
  });

  it('info: a table, JSON as sent, CSV rows, a rejection for an unknown number', async () => {
    const table = await run(['info', b!, '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(b!);
    const out = await run(['info', b!, 'UNREG0000003', '--json']);
    expect(out.code).toBe(3);
    const parsed = json(out) as unknown as {
      accepted: { number: string; track_info: unknown }[];
      rejected: { number: string }[];
    };
    expect(parsed.accepted[0]!.number).toBe(b);
    expect(parsed.accepted[0]!.track_info).toBeTruthy();
    expect(parsed.rejected[0]!.number).toBe('UNREG0000003');
    const csv = await run(['info', b!, 'UNREG0000003', '--csv']);
    expect(csv.code).toBe(3);
    const rows = parseCsv(csv.stdout);
    expect(rows.map((x) => [x.number, x.result])).toEqual([
      [b, 'accepted'],
      ['UNREG0000003', 'rejected'],
    ]);
    await expectRefused(['info', 'x'], /^trk: argument 1: number "x" is not 5 to 50/);
  });

  it('push: success queues a notification, rejection for an unregistered number', async () => {
    const ok = await run(['push', d!, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok).accepted[0]!.number).toBe(d);
    const missing = await run(['push', 'UNREG0000004', '--csv']);
    expect(missing.code).toBe(1);
    expect(parseCsv(missing.stdout)[0]).toMatchObject({ number: 'UNREG0000004', result: 'rejected' });
  });

  it('delete: refused without --yes off a terminal, then done with --yes, then rejected', async () => {
    await expectRefused(
      ['delete', d!],
      /^trk: deleting 1 number needs confirmation: pass --yes to confirm; nothing was sent/,
    );
    const ok = await run(['delete', d!, '--yes', '--csv']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(parseCsv(ok.stdout)[0]).toMatchObject({ number: d, result: 'accepted' });
    const again = await run(['delete', d!, '--yes', '--json']);
    expect(again.code).toBe(1);
    expect(json(again).rejected[0]!.error.code).toBe(-18019902);
  });
});

describe('realtime, quota, api', () => {
  it('realtime: JSON success; --fresh needs --yes off a terminal; an unsupported carrier is rejected', async () => {
    const n = numbers(1, 'RT')[0]!;
    const ok = await run(['realtime', n, '--carrier', '3011', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok).accepted[0]!.number).toBe(n);
    await expectRefused(['realtime', n, '--fresh'], /^trk: --fresh \(10 quota units\) needs confirmation: pass --yes/);
    const fresh = await run(['realtime', n, '--carrier', '3011', '--fresh', '--yes', '--csv']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(parseCsv(fresh.stdout)[0]).toMatchObject({ number: n, result: 'accepted' });
    const unsupported = await run(['realtime', n, '--carrier', '21051', '--json']);
    expect(unsupported.code).toBe(1);
    expect(json(unsupported).rejected[0]!.error.code).toBe(-18019818);
  });

  it('quota: the object as JSON, CSV with a header, a table', async () => {
    const j = await run(['quota', '--json']);
    expect(j.code).toBe(0);
    const q = JSON.parse(j.stdout) as Record<string, number>;
    expect(q.quota_total).toBeGreaterThan(0);
    expect(q.quota_used).toBeGreaterThan(0);
    const csv = await run(['quota', '--csv']);
    expect(parseCsv(csv.stdout)[0]!.quota_total).toBe(String(q.quota_total));
    const table = await run(['quota', '-o', 'table']);
    expect(table.stdout).toMatch(/Quota left/);
  });

  it('api: prints the envelope; rejected items exit 3; bad JSON exits 2 with nothing sent', async () => {
    const quota = await run(['api', 'getquota']);
    expect(quota.code).toBe(0);
    expect(JSON.parse(quota.stdout)).toMatchObject({ code: 0, data: { quota_total: expect.any(Number) } });
    const rejected = await run(['api', 'stoptrack', '--data', '[{"number":"UNREG0000005"}]']);
    expect(rejected.code).toBe(3);
    expect(JSON.parse(rejected.stdout).data.rejected[0].number).toBe('UNREG0000005');
    const piped = await run(['api', 'gettracklist', '--data', '-'], '{"page_no":1}');
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout).page.page_no).toBe(1);
    await expectRefused(['api', 'stoptrack', '--data', '[{'], /^trk: --data is not valid JSON/);
    await expectRefused(['api', 'frobnicate'], /^trk: unknown operation "frobnicate"/);
  });
});

describe('every item command in every format', () => {
  const FORMATS = [
    ['table', ['-o', 'table']],
    ['JSON', ['--json']],
    ['CSV', ['--csv']],
  ] as const;

  /** The number shows in the output as accepted (already, or rejected) in the format's own way. */
  function shows(r: Result, format: string, number: string, result: 'accepted' | 'already' | 'rejected') {
    if (format === 'JSON') {
      const out = JSON.parse(r.stdout) as Record<typeof result, { number: string }[]>;
      expect(out[result].map((x) => x.number)).toContain(number);
    } else if (format === 'CSV') {
      expect(parseCsv(r.stdout)).toContainEqual(expect.objectContaining({ number, result }));
    } else {
      expect(r.stdout).toMatch(/NUMBER/);
      expect(r.stdout).toMatch(new RegExp(`${number}.*${result}`));
    }
  }

  it.each(FORMATS)(
    '%s: success then rejection for register, update, change-carrier, push, stop, retrack, delete',
    async (format, flags) => {
      const n = numbers(1, `F${format.slice(0, 1).toUpperCase()}`)[0]!;
      const missing = `ZZ${format.toUpperCase()}0000000`;
      // Each step: a success, then a second command the service refuses, with its exit code: 1 when nothing was
      // done (rejected), 0 when the number already is as asked (already: stopped twice, re-tracked while tracking).
      const steps: [string[], string[], number][] = [
        [['register', n, '--carrier', '3011'], ['register', `XX${format.toUpperCase()}0000000`], 1],
        [['update', n, '--tag', 'x'], ['update', missing, '--tag', 'x'], 1],
        [['push', n], ['push', missing], 1],
        [['change-carrier', n, '--to', '190271'], ['change-carrier', missing, '--to', '190271'], 1],
        [['stop', n], ['stop', n], 0],
        [['retrack', n], ['retrack', n], 0],
        [['delete', n, '--yes'], ['delete', n, '--yes'], 1],
        [['register', n, '--carrier', '3011'], ['delete', missing, '--yes', '--ignore-missing'], 0],
      ];
      for (const [ok, bad, code] of steps) {
        // Push needs a first tracking result.
        if (ok[0] === 'push') await emu.sandbox.advance(DAY);
        const good = await run([...ok, ...flags]);
        expect(good.code, `${ok.join(' ')}: ${good.stderr}`).toBe(0);
        shows(good, format, n, 'accepted');
        const refused = await run([...bad, ...flags]);
        expect(refused.code, `${bad.join(' ')}: ${refused.stderr}`).toBe(code);
        shows(refused, format, bad[1]!, code === 0 ? 'already' : 'rejected');
      }
    },
  );

  it.each(FORMATS)('%s: info of a registered and an unknown number', async (format, flags) => {
    const n = numbers(1, `I${format.slice(0, 1).toUpperCase()}`)[0]!;
    expect((await run(['register', n, '--carrier', '3011', '-q'])).code).toBe(0);
    await emu.sandbox.advance(DAY);
    const ok = await run(['info', n, ...flags]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(n);
    const mixed = await run(['info', n, 'ZZ000000000ZZ', ...flags]);
    expect(mixed.code).toBe(3);
    expect(mixed.stdout).toContain('ZZ000000000ZZ');
  });
});

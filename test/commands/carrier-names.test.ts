// Carrier codes or names wherever a carrier is accepted, resolved when the command runs (never a network call for
// a code), and carrier names beside codes in tables. Against the fake client and a cache folder holding the shared
// reference lists; the resource address points at a closed port, so any fetch would fail the test.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import { errorOutcome } from '../../src/cli.js';
import { cachePath, listUrl } from '../../src/carriers/lists.js';
import { REFERENCE } from '../fixture-files.js';
import { createFake, type FakeOptions, type Handler } from '../fake-context.js';
import { runProgram } from './run-program.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const RES_URL = 'http://127.0.0.1:9';
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A cache folder with the reference lists as `trk carriers` would have saved them (or empty). */
function cacheDir(withLists: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-names-'));
  dirs.push(dir);
  if (withLists) {
    mkdirSync(dir, { recursive: true });
    for (const [name, file] of [
      ['carriers', 'apicarrier.all.json'],
      ['countries', 'country.all.json'],
    ] as const) {
      const items = JSON.parse(readFileSync(path.join(REFERENCE, file), 'utf8')) as unknown[];
      writeFileSync(
        cachePath(dir, name, listUrl(RES_URL, name)),
        JSON.stringify({ url: listUrl(RES_URL, name), fetched_at: new Date(NOW).toISOString(), items }),
      );
    }
  }
  return dir;
}

async function parse(argv: string[], opts: FakeOptions & { lists?: boolean } = {}) {
  const fake = createFake({ now: NOW, env: { TRK_CACHE_DIR: cacheDir(opts.lists ?? true) }, ...opts });
  const { code, error } = await runProgram(fake, argv);
  const line = error === undefined ? '' : errorOutcome(error).line;
  return { code, line, calls: fake.calls, out: fake.io.stdoutText(), fake };
}

describe('carrier flags take a code or a name', () => {
  it('register --carrier and --final-carrier', async () => {
    const { code, fake } = await parse([
      'register',
      'RR123456789CN',
      '--carrier',
      'DHL Express',
      '--final-carrier',
      'china post',
    ]);
    expect(code).toBe(0);
    expect(fake.sent('register')).toEqual([[{ number: 'RR123456789CN', carrier: 100001, final_carrier: 3011 }]]);
  });

  it('every item command and list --carrier', async () => {
    for (const cmd of ['info', 'stop', 'retrack', 'push', 'delete']) {
      const { code, calls } = await parse([cmd, 'RR123456789CN', '--carrier', 'Yanwen', '--yes']);
      expect(code, cmd).toBe(0);
      expect(calls[0]!.body, cmd).toEqual([{ number: 'RR123456789CN', carrier: 190012 }]);
    }
    const update = await parse(['update', 'RR123456789CN', '--carrier', 'Yanwen', '--tag', 't']);
    expect(update.calls[0]!.body).toEqual([{ number: 'RR123456789CN', carrier: 190012, items: { tag: 't' } }]);
    const list = await parse(['list', '--carrier', 'China Post', '--page', '1'], {
      handler: () => ({ code: 0, data: { accepted: [] } }),
    });
    expect(list.calls[0]!.body).toMatchObject({ carrier: 3011 });
  });

  it('change-carrier --to, --from, --final-to, --final-from', async () => {
    const { code, fake } = await parse([
      'change-carrier',
      'RR123456789CN',
      '--to',
      'Yanwen',
      '--from',
      'China Post',
      '--final-to',
      'USPS',
      '--final-from',
      'Canada Post',
    ]);
    expect(code).toBe(0);
    expect(fake.sent('changecarrier')).toEqual([
      [
        {
          number: 'RR123456789CN',
          carrier_old: 3011,
          carrier_new: 190012,
          final_carrier_old: 3041,
          final_carrier_new: 21051,
        },
      ],
    ]);
  });

  it('realtime --carrier and --final-carrier', async () => {
    const { code, calls } = await parse([
      'realtime',
      'RR123456789CN',
      '--carrier',
      'china post',
      '--final-carrier',
      'usps',
    ]);
    expect(code).toBe(0);
    expect(calls[0]!.body).toEqual([{ number: 'RR123456789CN', carrier: 3011, final_carrier: 21051, cacheLevel: 0 }]);
  });

  it('an ambiguous name is a usage error listing the candidates; nothing is sent', async () => {
    const r = await parse(['register', 'RR123456789CN', '--carrier', 'DHL']);
    expect(r.code).toBe(2);
    expect(r.calls).toEqual([]);
    expect(r.line).toMatch(
      /^--carrier "DHL" is part of carriers' names: .*DHL Express \(100001\).*: pass the code, or .*--carrier-map/,
    );
    const to = await parse(['change-carrier', 'RR123456789CN', '--to', 'dhl']);
    expect(to.code).toBe(2);
    expect(to.line).toMatch(/^--to "dhl" is part of carriers' names/);
  });

  it('--carrier Other names no carrier, as a cell "Other" does: none is sent (never "Mothership")', async () => {
    const r = await parse(['register', 'RR123456789CN', '--carrier', 'Other']);
    expect(r.code).toBe(0);
    expect(r.calls.find((c) => c.op === 'register')!.body).toEqual([{ number: 'RR123456789CN', auto_detection: true }]);
    const part = await parse(['register', 'RR123456789CN', '--carrier', 'Mother']);
    expect(part.code).toBe(2);
    expect(part.line).toMatch(/^--carrier "Mother" is part of a carrier's name: Mothership \(101056\)/);
    const list = await parse(['list', '--carrier', 'Other']);
    expect(list.code).toBe(2);
    expect(list.line).toBe(
      '--carrier "Other" names no carrier: a list filter needs a carrier: drop --carrier to list every carrier',
    );
  });

  it('an unknown name or code is a usage error naming the flag', async () => {
    const name = await parse(['info', 'RR123456789CN', '--carrier', 'No Such Carrier Anywhere']);
    expect(name.code).toBe(2);
    expect(name.line).toMatch(/^--carrier: unknown carrier "No Such Carrier Anywhere"/);
    const code = await parse(['stop', 'RR123456789CN', '--carrier', '99999']);
    expect(code.code).toBe(2);
    expect(code.line).toMatch(/^--carrier: unknown carrier code 99999/);
    expect(code.calls).toEqual([]);
    const empty = await parse(['stop', 'RR123456789CN', '--carrier', ' ']);
    expect(empty.code).toBe(2);
  });

  it('codes need no list: without a cache they are sent as given, with no network call', async () => {
    // The resource address is a closed port: a fetch would fail the command. A carrier code 0 is how the
    // service says "none": it is not sent.
    const r = await parse(['register', 'RR123456789CN', '--carrier', '99999', '--final-carrier', '0'], {
      lists: false,
    });
    expect(r.code).toBe(0);
    expect(r.fake.sent('register')).toEqual([[{ number: 'RR123456789CN', carrier: 99999 }]]);
  });

  it('a name without a cached list fetches it; when that fails, the error says so', async () => {
    const r = await parse(['register', 'RR123456789CN', '--carrier', 'China Post'], { lists: false });
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/could not fetch the carrier list/);
    expect(r.calls).toEqual([]);
  });
});

describe('carrier names beside codes in tables', () => {
  const record = (version: ApiVersion) =>
    version === 'v1'
      ? { number: 'RR123456789CN', w1: 3011, w2: 21051, b: 301, c: 2105, e: 10, ts: true, rt: '2025-05-01 00:00:00' }
      : {
          number: 'RR123456789CN',
          carrier: 3011,
          final_carrier: 21051,
          package_status: 'InTransit',
          tracking_status: 'Tracking',
        };
  const listHandler =
    (version: ApiVersion): Handler =>
    () => ({
      code: 0,
      data: { accepted: [record(version)] },
      page: { data_total: 1, page_total: 1, page_no: 1, page_size: 40 },
    });

  it('list: a table shows names, CSV and JSON keep the codes', async () => {
    const table = await parse(['list', '-o', 'table'], { handler: listHandler('v2'), version: 'v2' });
    expect(table.out).toMatch(/RR123456789CN\s+3011 China Post\s+21051 USPS\s+InTransit/);
    const csv = await parse(['list', '--csv'], { handler: listHandler('v2') });
    expect(csv.out.split('\n')[1]).toMatch(/^RR123456789CN,3011,21051,InTransit,/);
    const none = await parse(['list', '-o', 'table'], { handler: listHandler('v2'), lists: false });
    expect(none.out).toMatch(/RR123456789CN\s+3011\s+21051\s+InTransit/);
  });

  it('v1 lists: names beside codes, numeric countries as ISO codes (from the cached lists)', async () => {
    const table = await parse(['list', '-o', 'table'], { handler: listHandler('v1'), version: 'v1' });
    expect(table.out).toMatch(/RR123456789CN\s+3011 China Post\s+21051 USPS\s+InTransit/);
    const csv = await parse(['list', '--csv'], { handler: listHandler('v1'), version: 'v1' });
    const [header, row] = csv.out.split('\n');
    const cells = Object.fromEntries(header!.split(',').map((h, i) => [h, row!.split(',')[i]]));
    expect(cells).toMatchObject({ carrier: '3011', origin_country: 'CN', destination_country: 'US' });
  });

  it('item commands: the carrier column of a table', async () => {
    for (const cmd of [['register'], ['stop'], ['update', '--tag', 'x'], ['change-carrier', '--to', '3011']]) {
      const r = await parse([...cmd, 'RR123456789CN', '-o', 'table']);
      expect(r.code, cmd[0]).toBe(0);
      expect(r.out, cmd[0]).toMatch(/RR123456789CN\s+3011 China Post\s+/);
    }
  });

  it('info: the tracking page and the rejected rows name the carriers', async () => {
    const handler: Handler = () => ({
      code: 0,
      data: {
        accepted: [
          {
            number: 'RR123456789CN',
            tag: null,
            track: { w1: 3011, w2: 21051, b: 301, c: 2105, e: 10, z0: {}, z1: [], z2: [] },
          },
        ],
        rejected: [{ number: 'RR000000000CN', carrier: 3011, error: { code: -18019902, message: 'not registered' } }],
      },
    });
    const r = await parse(['info', 'RR123456789CN', 'RR000000000CN'], { handler, version: 'v1', tty: true });
    expect(r.code).toBe(3);
    expect(r.out.split('\n')[0]).toBe('RR123456789CN  ·  3011 China Post  ·  last mile 21051 USPS');
    expect(r.out).toMatch(/Route {5}CN → US/);
    expect(r.out).toMatch(/RR000000000CN\s+3011 China Post\s+rejected/);
  });
});

// Every command under v1, v2 and v2.1 against the emulator, through a recording pass-through: the paths and
// their casing, the request shapes of each version (v1's extra_param, changeinfo as one object, deleteTrack
// needing the carrier, list filters as codes), the same table and CSV columns whatever the version, --json as
// the service sent it, v2.1's extra fields, and a clear refusal of what a version lacks.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  V1_PACKAGE_STATUS,
  V1_PACKAGE_STATUS_CODE,
  type ApiVersion,
  type Operation,
  type PackageStatus,
} from '@trk/service/vocabulary.js';
import { operationPath } from '@trk/service/operations/index.js';
import { startReferenceServer, type ReferenceServer } from '../carriers/reference-server.js';
import { FIXTURES } from '../fixture-files.js';
import { baseEnv, numbers, parseCsv, startEmulator, trk, type Emulator, type Result } from './helpers.js';
import { startRecorder, type Recorder, type RecordedRequest } from './recorder.js';

const DAY = 86_400_000;
const VERSIONS = ['v1', 'v2', 'v2.1'] as const;
const LONG = 180_000;

let emu: Emulator;
let rec: Recorder;
let ref: ReferenceServer;
let hook: Server;
let env: NodeJS.ProcessEnv;

/** Each version registers numbers of its own; every record can then be read in every version. */
const NUM: Record<ApiVersion, string[]> = { v1: numbers(5, 'VA'), v2: numbers(5, 'VB'), 'v2.1': numbers(5, 'VC') };
const ALL = [...NUM.v1, ...NUM.v2, ...NUM['v2.1']];

interface Sent extends Result {
  reqs: RecordedRequest[];
}

async function run(
  v: ApiVersion,
  args: string[],
  opts: { input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Sent> {
  const mark = rec.mark();
  const r = await trk(['--api-version', v, ...args], {
    env: opts.env ?? env,
    ...(opts.input === undefined ? {} : { input: opts.input }),
  });
  return { ...r, reqs: rec.since(mark) };
}

/** A usage error: exit 2, one line on stderr, nothing on stdout, no request sent. */
async function refused(v: ApiVersion, args: string[], message: RegExp): Promise<void> {
  const before = emu.requests();
  const r = await run(v, args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.reqs).toEqual([]);
  expect(emu.requests()).toBe(before);
}

const ok = (r: Result, what: string) => expect(r.code, `${what}: ${r.stderr}`).toBe(0);
const paths = (r: Sent) => r.reqs.map((q) => q.path);

/** The emulator's own answer to `op` in `version`, without trk. */
async function direct(
  version: ApiVersion,
  op: Operation,
  body: unknown,
): Promise<{ code: number; data: Record<string, unknown>; page?: unknown }> {
  const res = await fetch(`${emu.sandbox.url}/track/${version}/${operationPath(version, op)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', svctoken: emu.sandbox.key },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { code: number; data: Record<string, unknown> };
}

async function directList(version: ApiVersion, filter: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const env = (await direct(version, 'gettracklist', { ...filter, page_no: page })) as unknown as {
      data: { accepted: Record<string, unknown>[] };
      page: { page_total: number };
    };
    all.push(...env.data.accepted);
    if (page >= env.page.page_total) return all;
  }
}

/**
 * List records as `trk list --json` prints them: as sent, but for v1's times, which gain the T and Z their UTC
 * implies (every time trk prints in JSON is ISO 8601 with an offset).
 */
function asPrinted(version: ApiVersion, records: Record<string, unknown>[]): Record<string, unknown>[] {
  if (version !== 'v1') return records;
  const iso = (t: unknown) => (typeof t === 'string' ? t.replace(/^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)$/, '$1T$2Z') : t);
  return records.map((r) => ({ ...r, rt: iso(r.rt), tt: iso(r.tt), pt: iso(r.pt), st: iso(r.st) }));
}

/** Header cells of a table (columns are separated by at least two spaces). */
const tableHeader = (text: string) =>
  text
    .split('\n')[0]!
    .trim()
    .split(/\s{2,}/);

beforeAll(async () => {
  hook = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  ref = await startReferenceServer();
  emu = await startEmulator({
    speed: 0,
    rateLimit: 0,
    webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
  });
  rec = await startRecorder(emu.sandbox.url);
  env = { ...emu.env, TRK_BASE_URL: rec.url, TRK_RES_URL: ref.url };
});

afterAll(async () => {
  await rec?.close();
  await emu?.close();
  await ref?.close();
  await new Promise((r) => hook?.close(r));
});

describe('every command under v1, v2 and v2.1', () => {
  it('carriers and countries: the lists fetched once, then from the cache, whatever the version', async () => {
    for (const v of VERSIONS) {
      const c = await run(v, ['carriers', 'China Post', '--json']);
      ok(c, `${v} carriers`);
      expect((JSON.parse(c.stdout) as { key: number }[])[0]).toMatchObject({ key: 3011 });
      const k = await run(v, ['countries', 'Canada', '--json']);
      ok(k, `${v} countries`);
      expect(c.reqs.concat(k.reqs)).toEqual([]);
    }
    expect(ref.hits['apicarrier.all.json']).toBe(1);
    expect(ref.hits['country.all.json']).toBe(1);
  });

  it('register: the version path, v1 extra_param, v2.1 order fields, carrier names; fields a version lacks refused', {
    timeout: LONG,
  }, async () => {
    for (const v of VERSIONS) {
      const extra = v === 'v2.1' ? ['--order-no', 'ORD-7', '--order-time', '2026-01-02', '--remark', 'fragile'] : [];
      const r = await run(v, [
        'register',
        ...NUM[v].slice(0, 4),
        '--carrier',
        'China Post',
        '--param',
        'P-1',
        '--tag',
        `t-${v}`,
        ...extra,
        '--json',
      ]);
      ok(r, `${v} register`);
      // The quota is read before anything is charged; v1 has no quota operation.
      expect(paths(r)).toEqual(
        v === 'v1' ? [`/track/${v}/register`] : [`/track/${v}/getquota`, `/track/${v}/register`],
      );
      const body = r.reqs.at(-1)!.body as Record<string, unknown>[];
      expect(body.map((i) => i.number)).toEqual(NUM[v].slice(0, 4));
      for (const item of body) {
        expect(item).toMatchObject({ carrier: 3011, tag: `t-${v}` });
        if (v === 'v1') {
          expect(item.extra_param).toBe('P-1');
          expect(item).not.toHaveProperty('param');
        } else {
          expect(item.param).toBe('P-1');
          expect(item).not.toHaveProperty('extra_param');
        }
        if (v === 'v2.1')
          expect(item).toMatchObject({ order_no: 'ORD-7', order_time: '2026-01-02', remark: 'fragile' });
        else expect(item).not.toHaveProperty('order_no');
      }
      const out = JSON.parse(r.stdout) as { accepted: Record<string, unknown>[]; rejected: unknown[] };
      expect(out.rejected).toEqual([]);
      expect(out.accepted.map((a) => a.number)).toEqual(NUM[v].slice(0, 4));
      // The service's items as sent: v2.1 adds email and lang to accepted items.
      if (v === 'v2.1') expect(out.accepted[0]).toHaveProperty('lang');
      else expect(out.accepted[0]).not.toHaveProperty('lang');

      // A table shows the carrier's name beside its code (from the cached list).
      const t = await run(v, ['register', NUM[v][4]!, '--carrier', '3011', '-o', 'table']);
      ok(t, `${v} register table`);
      expect(t.stdout).toMatch(new RegExp(`${NUM[v][4]}\\s+3011 China Post\\s+`));
    }
    await refused('v1', ['register', 'VX123456789CN', '--email', 'a@example.com'], /v1 API cannot send --email/);
    await refused('v1', ['register', 'VX123456789CN', '--lang', 'en'], /v1 API cannot send --lang/);
    await refused(
      'v2',
      ['register', 'VX123456789CN', '--order-no', 'O1'],
      /v2 API cannot send --order-no.*--api-version v2\.1/,
    );
    await refused(
      'v1',
      ['register', 'VX-123456789', '--carrier', '3011'],
      /argument 1: number "VX-123456789" is not 5 to 50 letters or digits/,
    );
    await refused(
      'v2',
      ['register', 'VX123456789CN', '--carrier', 'DHL'],
      /--carrier "DHL" is part of carriers' names: .*DHL Express \(100001\).*carrier-alias\.DHL CODE/,
    );

    // Let the shipments move: first results, a few days of events.
    await emu.sandbox.advance(3 * DAY);
  });

  it('list: JSON as the service sent it (v1 times in ISO 8601); the same CSV, TSV and table columns whatever ' +
    'the version', {
    timeout: LONG,
  }, async () => {
    const csv: Record<string, Record<string, string>[]> = {};
    const headers: string[][] = [];
    const tables: Record<string, string> = {};
    for (const v of VERSIONS) {
      const j = await run(v, ['list', '--json']);
      ok(j, `${v} list --json`);
      expect(paths(j)).toEqual([`/track/${v}/gettracklist`]);
      const items = JSON.parse(j.stdout) as Record<string, unknown>[];
      expect(items).toEqual(asPrinted(v, await directList(v, {})));
      if (v === 'v1') expect(items[0]!.rt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(items.map((i) => i.number).sort()).toEqual([...ALL].sort());
      if (v === 'v1') {
        expect(items[0]).toHaveProperty('w1', 3011);
        expect(items[0]).toHaveProperty('e');
        expect(items[0]).not.toHaveProperty('package_status');
      } else {
        expect(items[0]).toHaveProperty('package_status');
        if (v === 'v2.1') expect(items[0]).toHaveProperty('latest_event_info');
        else expect(items[0]).not.toHaveProperty('latest_event_info');
      }

      const c = await run(v, ['list', '--csv']);
      ok(c, `${v} list --csv`);
      headers.push(c.stdout.split('\n')[0]!.split(','));
      csv[v] = parseCsv(c.stdout);

      const tsv = await run(v, ['list']);
      ok(tsv, `${v} list (tab-separated)`);
      // Not trimmed: a record's trailing empty fields are tabs at the end of its line.
      const lines = tsv.stdout.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(ALL.length);
      for (const line of lines) expect(line.split('\t')).toHaveLength(headers[0]!.length);

      const t = await run(v, ['list', '-o', 'table']);
      ok(t, `${v} list table`);
      tables[v] = t.stdout;
      expect(t.stdout).toMatch(/3011 China Post/);
    }
    // One set of columns, in one order, for every version.
    expect(headers[1]).toEqual(headers[0]);
    expect(headers[2]).toEqual(headers[0]);
    expect(headers[0]).toEqual(
      expect.arrayContaining([
        'number',
        'carrier',
        'status',
        'tracking',
        'registered',
        'push_status',
        'origin_country',
        'order_no',
        'remark',
        'latest_event',
      ]),
    );
    // The same records read alike: v1's codes become the same names and countries (from the cached lists).
    const byNumber = (rows: Record<string, string>[]) => new Map(rows.map((r) => [r.number!, r]));
    const v1 = byNumber(csv.v1!);
    const v2 = byNumber(csv.v2!);
    const v21 = byNumber(csv['v2.1']!);
    for (const n of ALL) {
      const [a, b, d] = [v1.get(n)!, v2.get(n)!, v21.get(n)!];
      for (const col of [
        'carrier',
        'tracking',
        'registered',
        'tracked',
        'tag',
        'origin_country',
        'destination_country',
        'push_status',
        'push_code',
        'retracked',
      ]) {
        expect(a[col], `${n} ${col} v1`).toBe(b[col]);
        expect(d[col], `${n} ${col} v2.1`).toBe(b[col]);
      }
      expect(a.origin_country).toMatch(/^[A-Z]{2}$/);
      // v1 has one code for InfoReceived, InTransit and OutForDelivery.
      expect(a.status).toBe(V1_PACKAGE_STATUS[V1_PACKAGE_STATUS_CODE[b.status as PackageStatus]]);
      expect(d.status).toBe(b.status);
    }
    // v2.1's extra fields: the order fields registered with v2.1 reached the service, and come back as columns.
    const directV21 = await directList('v2.1', { number: NUM['v2.1'].slice(0, 4).join(',') });
    expect(directV21).toHaveLength(4);
    // order_time as the service writes it: ISO to the second (sent as a bare date).
    for (const item of directV21)
      expect(item).toMatchObject({ order_no: 'ORD-7', order_time: '2026-01-02T00:00:00Z', remark: 'fragile' });
    for (const n of NUM['v2.1'].slice(0, 4)) {
      expect(v21.get(n)).toMatchObject({ order_no: 'ORD-7', remark: 'fragile' });
      expect(v21.get(n)!.latest_event).not.toBe('');
      expect(v2.get(n)).toMatchObject({ order_no: '', remark: '', latest_event: '' });
    }
    // Tables: the same records give the same columns in v1 and v2 (v2.1 fills more, so more may be dropped to fit).
    expect(tableHeader(tables.v1!)).toEqual(tableHeader(tables.v2!));
    const order = [
      'NUMBER',
      'CARRIER',
      'LAST MILE',
      'STATUS',
      'TRACKING',
      'REGISTERED',
      'TRACKED',
      'PUSHED',
      'PUSH',
      'HTTP',
      'STOPPED',
      'STOP REASON',
      'RETRACKED',
      'CHANGES',
      'TAG',
      'FROM',
      'TO',
      'LAST EVENT AT',
      'LAST EVENT',
      'DAYS',
      'IN TRANSIT',
      'DELIVERED',
      'ORDER',
      'REMARK',
    ];
    for (const v of VERSIONS) {
      const h = tableHeader(tables[v]!);
      expect(
        h.every((x) => order.includes(x)),
        h.join('|'),
      ).toBe(true);
      expect(h.map((x) => order.indexOf(x))).toEqual([...h.map((x) => order.indexOf(x))].sort((a, b) => a - b));
    }
  });

  it('list filters: v1 gets its own field names and codes; what v1 cannot filter by is refused', {
    timeout: LONG,
  }, async () => {
    const cases: { args: string[]; v1: Record<string, unknown>; v2: Record<string, unknown> }[] = [
      { args: ['--status', 'InTransit'], v1: { package_status: 10 }, v2: { package_status: 'InTransit' } },
      { args: ['--status', 'Delivered'], v1: { package_status: 40 }, v2: { package_status: 'Delivered' } },
      { args: ['--tracking', 'Tracking'], v1: { tracking_state: 1 }, v2: { tracking_status: 'Tracking' } },
      { args: ['--tracking', 'Stopped'], v1: { tracking_state: 0 }, v2: { tracking_status: 'Stopped' } },
      { args: ['--push-status', 'Failure'], v1: { push_state: 2 }, v2: { push_status: 'Failure' } },
      { args: ['--push-status', 'Success'], v1: { push_state: 1 }, v2: { push_status: 'Success' } },
      { args: ['--carrier', 'China Post'], v1: { carrier: 3011 }, v2: { carrier: 3011 } },
      { args: ['--number', NUM.v2[0]!], v1: { number: NUM.v2[0] }, v2: { number: NUM.v2[0] } },
    ];
    for (const { args, v1, v2 } of cases) {
      for (const v of VERSIONS) {
        const r = await run(v, ['list', ...args, '--json']);
        ok(r, `${v} list ${args.join(' ')}`);
        const want = { ...(v === 'v1' ? v1 : v2), page_no: 1 };
        expect(r.reqs[0]!.body, `${v} ${args.join(' ')}`).toEqual(want);
        // What trk printed is what the service answers to that filter.
        expect(JSON.parse(r.stdout)).toEqual(asPrinted(v, await directList(v, want)));
      }
    }
    // Codes filter as the names do: v1's in-transit code covers three v2 statuses.
    const v1InTransit = JSON.parse((await run('v1', ['list', '--status', 'InTransit', '--json'])).stdout) as {
      e: number;
    }[];
    expect(v1InTransit.length).toBeGreaterThan(0);
    expect(v1InTransit.every((i) => i.e === 10)).toBe(true);
    const v2Moving = (await directList('v2', {})).filter((i) =>
      ['InfoReceived', 'InTransit', 'OutForDelivery'].includes(i.package_status as string),
    );
    expect(v1InTransit).toHaveLength(v2Moving.length);

    // Time ranges: v1's names for tracked and stopped.
    const r = await run('v1', [
      'list',
      '--registered-since',
      '2026-01-01',
      '--tracked-until',
      'now',
      '--stopped-since',
      '30d',
      '--pushed-until',
      'now',
      '--json',
    ]);
    ok(r, 'v1 list time ranges');
    expect(Object.keys(r.reqs[0]!.body as object).sort()).toEqual([
      'page_no',
      'push_time_to',
      'register_time_from',
      'stop_time_from',
      'tracking_time_to',
    ]);
    const r2 = await run('v2', ['list', '--tracked-until', 'now', '--stopped-since', '30d', '--json']);
    expect(Object.keys(r2.reqs[0]!.body as object).sort()).toEqual([
      'page_no',
      'stop_track_time_from',
      'track_time_to',
    ]);

    await refused('v1', ['list', '--origin', 'Api'], /v1 API cannot filter or sort the list by data_origin/);
    await refused(
      'v1',
      ['list', '--order-by', 'RegisterTimeDesc'],
      /v1 API cannot filter or sort the list by order_by/,
    );
    await refused('v1', ['list', '--push-code', '200'], /v1 API cannot filter or sort the list by push_status_code/);
  });

  it('info: JSON as sent, the same CSV columns, tracking pages with carrier names; v2.1 per-event sub-statuses', {
    timeout: LONG,
  }, async () => {
    const pick = [NUM.v1[0]!, NUM.v2[1]!, NUM['v2.1'][2]!];
    const headers: string[] = [];
    for (const v of VERSIONS) {
      const j = await run(v, ['info', ...pick, '--json']);
      ok(j, `${v} info --json`);
      expect(paths(j)).toEqual([`/track/${v}/gettrackinfo`]);
      expect(j.reqs[0]!.body).toEqual(pick.map((number) => ({ number })));
      const out = JSON.parse(j.stdout) as { accepted: Record<string, unknown>[] };
      expect(out.accepted).toEqual(
        (
          await direct(
            v,
            'gettrackinfo',
            pick.map((number) => ({ number })),
          )
        ).data.accepted,
      );
      expect(out.accepted[0]).toHaveProperty(v === 'v1' ? 'track' : 'track_info');

      const c = await run(v, ['info', ...pick, '--csv']);
      ok(c, `${v} info --csv`);
      headers.push(c.stdout.split('\n')[0]!);
      const rows = parseCsv(c.stdout);
      expect(rows.map((x) => x.number)).toEqual(pick);
      expect(rows.every((x) => x.carrier === '3011' && x.result === 'accepted' && Number(x.events) > 0)).toBe(true);

      const t = await run(v, ['info', pick[0]!, '-o', 'table', '--page']);
      ok(t, `${v} info table`);
      expect(t.stdout.split('\n')[0]).toMatch(new RegExp(`^${pick[0]}  ·  3011 China Post`));
      expect(t.stdout).toMatch(/Events \(\d+, newest first\)/);
      // v1's numeric countries read as ISO codes, as v2 sends them.
      expect(t.stdout).toMatch(/Route {5}.*\b[A-Z]{2} → .*\b[A-Z]{2}\b/);
    }
    expect(headers[1]).toBe(headers[0]);
    expect(headers[2]).toBe(headers[0]);

    // v2.1 events carry sub_status (v2 events do not), shown on each event of the page.
    const raw21 = await direct('v2.1', 'gettrackinfo', [{ number: pick[0] }]);
    const providers21 = (
      raw21.data.accepted as { track_info: { tracking: { providers: { events: Record<string, unknown>[] }[] } } }[]
    )[0]!.track_info.tracking.providers;
    const subs = providers21.flatMap((p) => p.events.map((e) => e.sub_status));
    expect(subs.length).toBeGreaterThan(0);
    expect(subs.every((s) => typeof s === 'string')).toBe(true);
    const raw2 = await direct('v2', 'gettrackinfo', [{ number: pick[0] }]);
    const events2 = (
      raw2.data.accepted as { track_info: { tracking: { providers: { events: Record<string, unknown>[] }[] } } }[]
    )[0]!.track_info.tracking.providers.flatMap((p) => p.events);
    expect(events2.some((e) => 'sub_status' in e)).toBe(false);
    const page21 = await run('v2.1', ['info', pick[0]!, '-o', 'table', '--page']);
    const page2 = await run('v2', ['info', pick[0]!, '-o', 'table', '--page']);
    const eventHeads = (page: string) => page.split('\n').filter((l) => /^ {2}\d{4}-\d{2}-\d{2} /.test(l));
    expect(eventHeads(page21.stdout).length).toBe(eventHeads(page2.stdout).length);
    expect(
      eventHeads(page21.stdout).some((l) =>
        new RegExp(
          String.raw`\((picked up by the carrier|on its way|left the origin port|arrived at destination port|` +
            String.raw`the carrier has the order data, pickup pending|out for delivery|delivered)\)$`,
        ).test(l),
      ),
    ).toBe(true);
    expect(eventHeads(page2.stdout).some((l) => /\)$/.test(l))).toBe(false);
  });

  it('stop, retrack, push, update, change-carrier, delete: each version’s path, casing and body', {
    timeout: LONG,
  }, async () => {
    for (const v of VERSIONS) {
      const [n0, n1, n2, n3] = NUM[v] as [string, string, string, string];
      const stop = await run(v, ['stop', n0, '--json']);
      ok(stop, `${v} stop`);
      expect(paths(stop)).toEqual([`/track/${v}/stoptrack`]);
      expect(stop.reqs[0]!.body).toEqual([{ number: n0 }]);

      const retrack = await run(v, ['retrack', n0, '--carrier', 'China Post', '-o', 'table']);
      ok(retrack, `${v} retrack`);
      expect(paths(retrack)).toEqual([v === 'v1' ? '/track/v1/Retrack' : `/track/${v}/retrack`]);
      expect(retrack.reqs[0]!.body).toEqual([{ number: n0, carrier: 3011 }]);
      expect(retrack.stdout).toMatch(new RegExp(`${n0}\\s+3011 China Post\\s+accepted`));

      const push = await run(v, ['push', n1, '--json']);
      ok(push, `${v} push`);
      expect(paths(push)).toEqual([`/track/${v}/push`]);

      const update = await run(v, ['update', n1, n2, '--tag', `new-${v}`, '--json']);
      ok(update, `${v} update`);
      if (v === 'v1') {
        // v1 changeinfo takes one object, not an array: one request per number.
        expect(paths(update)).toEqual(['/track/v1/changeinfo', '/track/v1/changeinfo']);
        expect(update.reqs.map((q) => q.body)).toEqual(
          expect.arrayContaining([
            { number: n1, items: { tag: 'new-v1' } },
            { number: n2, items: { tag: 'new-v1' } },
          ]),
        );
      } else {
        expect(paths(update)).toEqual([`/track/${v}/changeinfo`]);
        expect(update.reqs[0]!.body).toEqual([
          { number: n1, items: { tag: `new-${v}` } },
          { number: n2, items: { tag: `new-${v}` } },
        ]);
      }
      expect((JSON.parse(update.stdout) as { accepted: unknown[] }).accepted).toHaveLength(2);

      const change = await run(v, ['change-carrier', n2, '--from', '3011', '--to', 'Yanwen', '--json']);
      ok(change, `${v} change-carrier`);
      // A carrier change costs quota: it is read first, where the version can.
      expect(paths(change)).toEqual(
        v === 'v1' ? [`/track/${v}/changecarrier`] : [`/track/${v}/getquota`, `/track/${v}/changecarrier`],
      );
      expect(change.reqs.at(-1)!.body).toEqual([{ number: n2, carrier_old: 3011, carrier_new: 190012 }]);

      if (v === 'v1') {
        await refused(
          'v1',
          ['delete', n3, '--yes'],
          /argument 1: the v1 API needs the carrier to delete a number \(--carrier, or a carrier column\)/,
        );
        const del = await run(v, ['delete', n3, '--carrier', 'China Post', '--yes', '--json']);
        ok(del, 'v1 delete');
        expect(paths(del)).toEqual(['/track/v1/deleteTrack']);
        expect(del.reqs[0]!.body).toEqual([{ number: n3, carrier: 3011 }]);
      } else {
        const del = await run(v, ['delete', n3, '--yes', '--json']);
        ok(del, `${v} delete`);
        expect(paths(del)).toEqual([`/track/${v}/deletetrack`]);
        expect(del.reqs[0]!.body).toEqual([{ number: n3 }]);
      }
    }
    await refused('v1', ['update', NUM.v1[1]!, '--param', 'X'], /v1 API cannot send --param: use --api-version v2/);
    await refused('v1', ['update', NUM.v1[1]!, '--lang', 'en'], /v1 API cannot send --lang: use --api-version v2/);
    await refused(
      'v2',
      ['change-carrier', NUM.v2[1]!, '--to', 'no such carrier at all'],
      /--to: unknown carrier "no such carrier at all"/,
    );
    // The emulator routed each version's exact paths to the operations.
    const byOp = emu.sandbox.state().requests.byOperation;
    for (const op of ['retrack', 'deletetrack', 'changeinfo', 'changecarrier', 'stoptrack', 'push']) {
      for (const v of VERSIONS) expect(byOp[`${v}/${op}`], `${v}/${op}`).toBeGreaterThan(0);
    }
  });

  it('quota and realtime: v2 and v2.1 on their paths; v1, which lacks them, refuses clearly', {
    timeout: LONG,
  }, async () => {
    await refused('v1', ['quota'], /^trk: the v1 API has no quota operation: use --api-version v2$/m);
    await refused(
      'v1',
      ['realtime', NUM.v1[1]!],
      /^trk: the v1 API has no real-time operation: use --api-version v2$/m,
    );
    await refused('v1', ['api', 'getquota'], /the v1 API has no quota operation/);
    const quotaCsv: string[] = [];
    for (const v of ['v2', 'v2.1'] as const) {
      const q = await run(v, ['quota', '--json']);
      ok(q, `${v} quota`);
      expect(paths(q)).toEqual([`/track/${v}/getquota`]);
      expect(JSON.parse(q.stdout)).toEqual((await direct(v, 'getquota', [])).data);
      quotaCsv.push((await run(v, ['quota', '--csv'])).stdout.split('\n')[0]!);

      const rt = await run(v, ['realtime', NUM[v][1]!, '--carrier', 'China Post', '--json']);
      ok(rt, `${v} realtime`);
      expect(paths(rt)).toEqual([`/track/${v}/getRealTimeTrackInfo`]);
      expect(rt.reqs[0]!.body).toEqual([{ number: NUM[v][1], carrier: 3011, cacheLevel: 0 }]);
      expect((JSON.parse(rt.stdout) as { accepted: { number: string }[] }).accepted[0]!.number).toBe(NUM[v][1]);
    }
    expect(quotaCsv[1]).toBe(quotaCsv[0]);
  });

  it('api: the operation on the version’s path with its casing', { timeout: LONG }, async () => {
    for (const v of VERSIONS) {
      const list = await run(v, ['api', 'gettracklist', '--data', '{"page_no":1}']);
      ok(list, `${v} api gettracklist`);
      expect(paths(list)).toEqual([`/track/${v}/gettracklist`]);
      const del = await run(v, ['api', 'deletetrack', '--data', '[]']);
      ok(del, `${v} api deletetrack`);
      expect(paths(del)).toEqual([v === 'v1' ? '/track/v1/deleteTrack' : `/track/${v}/deletetrack`]);
    }
  });

  it('auth and config: the profile’s version applies to every command without --api-version', {
    timeout: LONG,
  }, async () => {
    for (const v of VERSIONS) {
      // A profile of its own, without the key in the environment.
      const own: NodeJS.ProcessEnv = { ...baseEnv(), TRK_RES_URL: ref.url };
      const login = await run(v, ['auth', 'login', '--with-key-stdin', '--base-url', rec.url], {
        input: `${emu.sandbox.key}\n`,
        env: own,
      });
      ok(login, `${v} auth login`);
      // v1 has no getquota: the key is proven with the first page of the list.
      // (and whether the address serves the carrier list itself, as the sandbox does: one HEAD request)
      expect(paths(login)).toEqual([
        v === 'v1' ? '/track/v1/gettracklist' : `/track/${v}/getquota`,
        '/asset/carrier/info/apicarrier.all.json',
      ]);
      expect(login.stderr).toContain(`(${v})`);
      const status = await trk(['auth', 'status', '--json'], { env: own });
      ok(status, `${v} auth status`);
      expect(status.stdout).toContain(`"${v}"`);
      const got = await trk(['config', 'get', 'api-version'], { env: own });
      expect(got.stdout.trim()).toBe(v);

      const mark = rec.mark();
      const list = await trk(['list', '--json'], { env: own });
      ok(list, `${v} list from the profile`);
      expect(rec.since(mark).map((q) => q.path)).toEqual([`/track/${v}/gettracklist`]);
      const info = await trk(['info', NUM.v2[1]!, '--json'], { env: own });
      ok(info, `${v} info from the profile`);
      expect((JSON.parse(info.stdout) as { accepted: object[] }).accepted[0]).toHaveProperty(
        v === 'v1' ? 'track' : 'track_info',
      );

      // The profile setting switched by `config set`.
      const other = v === 'v1' ? 'v2.1' : 'v1';
      ok(await trk(['config', 'set', 'api-version', other], { env: own }), 'config set');
      const mark2 = rec.mark();
      ok(await trk(['list', '--limit', '1'], { env: own }), `${other} list from the profile`);
      expect(rec.since(mark2).map((q) => q.path)).toEqual([`/track/${other}/gettracklist`]);
      ok(await trk(['auth', 'logout'], { env: own }), 'auth logout');
    }
  });

  it('commands that send nothing work the same whatever the version', { timeout: LONG }, async () => {
    for (const v of VERSIONS) {
      for (const args of [
        ['config', 'list'],
        ['completion', 'bash'],
        ['help', 'exit-codes'],
        ['list', '--help'],
      ]) {
        const r = await run(v, args);
        ok(r, `${v} ${args.join(' ')}`);
        expect(r.stdout).not.toBe('');
        expect(r.reqs).toEqual([]);
      }
    }
  });

  it('unknown v1 status codes (e: 5000, a recorded answer) are shown raw in every format, never a crash', {
    timeout: LONG,
  }, async () => {
    const answer = readFileSync(
      path.join(FIXTURES, 'real-v1', 'gettrackinfo_with_unknown_status_response.json'),
      'utf8',
    );
    const fake = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/track/v1/gettrackinfo')
          res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
        else res.writeHead(404).end();
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const fenv = { ...env, TRK_BASE_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` };
      const number = '1234567890987654321';
      const json = await trk(['--api-version', 'v1', 'info', number, '--json'], { env: fenv });
      ok(json, 'json');
      expect(JSON.parse(json.stdout).accepted).toEqual(
        (JSON.parse(answer) as { data: { accepted: unknown[] } }).data.accepted,
      );
      const csv = await trk(['--api-version', 'v1', 'info', number, '--csv'], { env: fenv });
      ok(csv, 'csv');
      expect(parseCsv(csv.stdout).map((r) => r.status)).toEqual(['NotFound', 'InTransit', '5000']);
      const table = await trk(['--api-version', 'v1', 'info', number, '-o', 'table', '--page'], { env: fenv });
      ok(table, 'table');
      expect(table.stdout).toContain('Status 5000 (unknown status code)');
      expect(table.stdout).toContain('100003 FedEx');
    } finally {
      await new Promise((r) => fake.close(r));
    }
  });

  it('v2.1 customs statuses: a column in CSV, highlighted on the tracking page; v2 has none', {
    timeout: LONG,
  }, async () => {
    // International parcels reach customs after some days in transit.
    await emu.sandbox.advance(9 * DAY);
    const csv21 = await run('v2.1', ['info', ...ALL, '--csv']);
    const csv2 = await run('v2', ['info', ...ALL, '--csv']);
    const rows21 = parseCsv(csv21.stdout).filter((r) => r.result === 'accepted');
    const rows2 = parseCsv(csv2.stdout).filter((r) => r.result === 'accepted');
    expect(rows2.length).toBeGreaterThan(5);
    expect(rows2.every((r) => r.customs === '')).toBe(true);
    const withCustoms = rows21.filter((r) => r.customs !== '');
    expect(withCustoms.length).toBeGreaterThan(0);
    for (const r of withCustoms)
      expect(r.customs).toMatch(/^InTransit_Customs(Processing|Released|RequiringInformation)$/);
    const number = withCustoms[0]!.number!;
    // The latest customs event as the service sent it.
    const raw = await direct('v2.1', 'gettrackinfo', [{ number }]);
    const item = (
      raw.data.accepted as {
        track_info: { tracking: { providers: { events: { sub_status: string; description: string }[] }[] } };
      }[]
    )[0]!;
    const customsEvents = item.track_info.tracking.providers
      .flatMap((p) => p.events)
      .filter((e) => /^InTransit_Customs/.test(e.sub_status));
    expect(customsEvents.map((e) => e.sub_status)).toContain(withCustoms[0]!.customs);
    const page = await run('v2.1', ['info', number, '-o', 'table', '--page']);
    ok(page, 'v2.1 info table');
    expect(page.stdout).toMatch(/^Customs {3}(in customs|released by customs|customs need more information)/m);
    expect(page.stdout).toMatch(/^ {6}customs: (in customs|released by customs|customs need more information)$/m);
    const page2 = await run('v2', ['info', number, '-o', 'table', '--page']);
    expect(page2.stdout).not.toMatch(/customs:/);
  });

  it('--sandbox: the embedded emulator speaks every version too', { timeout: LONG }, async () => {
    const own = { ...baseEnv(), TRK_RES_URL: ref.url };
    for (const v of VERSIONS) {
      const reg = await trk(['--sandbox', '--api-version', v, 'register', NUM[v][0]!, '--carrier', '3011', '--json'], {
        env: own,
      });
      ok(reg, `${v} --sandbox register`);
      const list = await trk(['--sandbox', '--api-version', v, 'list', '--json'], { env: own });
      ok(list, `${v} --sandbox list`);
      const items = JSON.parse(list.stdout) as Record<string, unknown>[];
      expect(items.some((i) => i.number === NUM[v][0])).toBe(true);
      expect(items[0]).toHaveProperty(v === 'v1' ? 'w1' : 'package_status');
    }
  });
});

// trk list: its filters and their requests, merged queries and local matching against the fake client; the
// command line; and against the emulator: every page, filters, formats.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildListFilters, runList } from '../../../src/commands/list/list-run.js';
import type { TrackListFilter } from '@trk/service/types.js';
import { UsageError } from '../../../src/core/errors.js';
import { createFake, type Handler } from '../../fake-context.js';
import { runLine } from '../run-program.js';
import { emulatorList, numbers, parseCsv, startEmulator, trk, type Emulator } from '../../e2e/helpers.js';
import { withCachedLists } from '../carrier-lists.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

function record(i: number, status: string) {
  return {
    number: `NUM${String(i).padStart(6, '0')}`,
    param: null,
    param_type: 'None',
    data_origin: 'Api',
    carrier: 3011,
    final_carrier: 0,
    shipping_country: 'CN',
    recipient_country: 'US',
    register_time: '2025-05-01T00:00:00Z',
    tracking_status: 'Tracking',
    package_status: status,
    track_time: null,
    push_time: null,
    push_status: 'NotPushed',
    push_status_code: 0,
    stop_track_time: null,
    stop_track_reason: null,
    is_retracked: false,
    carrier_change_count: 0,
    tag: null,
  };
}

/** A service holding `n` records, every third Delivered, answering pages of 40 with page information. */
function pagedService(n: number): Handler {
  const all = Array.from({ length: n }, (_, i) => record(i, i % 3 === 0 ? 'Delivered' : 'InTransit'));
  return (_op, body) => {
    const f = body as TrackListFilter;
    const matching = all.filter((r) => f.package_status === undefined || r.package_status === f.package_status);
    const page = f.page_no ?? 1;
    const slice = matching.slice((page - 1) * 40, page * 40);
    return {
      code: 0,
      page: { data_total: matching.length, page_total: Math.ceil(matching.length / 40), page_no: page, page_size: 40 },
      data: { accepted: slice },
    };
  };
}

describe('buildListFilters', () => {
  it('maps every flag to its filter field', () => {
    expect(
      buildListFilters(
        {
          status: ['Delivered'],
          carrier: [3011],
          tracking: ['Stopped'],
          origin: ['Import'],
          registeredSince: '7d',
          registeredUntil: '2025-06-01',
          trackedSince: '12h',
          trackedUntil: 'now',
          pushedSince: '2025-05-01T00:00Z',
          pushedUntil: '30m',
          pushStatus: ['Failure'],
          pushCode: [500],
          stoppedSince: '2w',
          stoppedUntil: '1d',
          numbers: ['A1234', 'B1234', 'A1234'],
          orderBy: 'RegisterTimeDesc',
        },
        NOW,
      ),
    ).toEqual([
      {
        package_status: 'Delivered',
        carrier: 3011,
        tracking_status: 'Stopped',
        data_origin: 'Import',
        register_time_from: '2025-05-25T12:00:00Z',
        register_time_to: '2025-06-01T00:00:00Z',
        track_time_from: '2025-06-01T00:00:00Z',
        track_time_to: '2025-06-01T12:00:00Z',
        push_time_from: '2025-05-01T00:00:00Z',
        push_time_to: '2025-06-01T11:30:00Z',
        push_status: 'Failure',
        push_status_code: 500,
        stop_track_time_from: '2025-05-18T12:00:00Z',
        stop_track_time_to: '2025-05-31T12:00:00Z',
        number: 'A1234,B1234',
        order_by: 'RegisterTimeDesc',
      },
    ]);
  });

  it('refuses a time it cannot read, naming the flag', () => {
    expect(() => buildListFilters({ trackedSince: 'last week' }, NOW)).toThrow(
      /--tracked-since "last week" is not a time/,
    );
  });

  it('refuses a range that ends before it starts', () => {
    expect(() => buildListFilters({ registeredSince: '1d', registeredUntil: '7d' }, NOW)).toThrow(UsageError);
  });

  it('refuses more than 200 numbers', () => {
    const numbers = Array.from({ length: 201 }, (_, i) => `N${i}xxxx`);
    expect(() => buildListFilters({ numbers }, NOW)).toThrow(/at most 200 numbers, got 201/);
    expect(buildListFilters({ numbers: numbers.slice(0, 200) }, NOW)[0]!.number!.split(',')).toHaveLength(200);
  });
});

describe('runList', () => {
  it('--json prints one array of the matching records over every page, fetched in order', async () => {
    const fake = createFake({ handler: pagedService(300), global: { output: 'json' } });
    expect(await runList({ status: ['Delivered'] }, fake.ctx)).toBe(0);
    const out = JSON.parse(fake.io.stdoutText()) as { number: string; package_status: string }[];
    expect(out).toHaveLength(100);
    expect(out.every((r) => r.package_status === 'Delivered')).toBe(true);
    expect(new Set(out.map((r) => r.number)).size).toBe(100);
    expect(fake.calls.map((c) => (c.body as TrackListFilter).page_no)).toEqual([1, 2, 3]);
    expect(fake.calls.every((c) => (c.body as TrackListFilter).package_status === 'Delivered')).toBe(true);
  });

  it('--limit stops early, --page fetches one page', async () => {
    const limited = createFake({ handler: pagedService(300), global: { output: 'ndjson' } });
    await runList({ limit: 45 }, limited.ctx);
    expect(limited.io.stdoutText().trim().split('\n')).toHaveLength(45);
    expect(limited.calls).toHaveLength(2);

    const paged = createFake({ handler: pagedService(300), global: { output: 'ndjson' } });
    await runList({ page: 3 }, paged.ctx);
    expect(paged.calls.map((c) => (c.body as TrackListFilter).page_no)).toEqual([3]);
    expect(JSON.parse(paged.io.stdoutText().split('\n')[0]!).number).toBe('NUM000080');
  });

  it('an empty result prints an empty array and exits 0', async () => {
    const fake = createFake({ handler: pagedService(0), global: { output: 'json' } });
    expect(await runList({}, fake.ctx)).toBe(0);
    expect(JSON.parse(fake.io.stdoutText())).toEqual([]);
  });

  it('CSV has a header and one row per record', async () => {
    const fake = createFake({ handler: pagedService(50), global: { output: 'csv' } });
    await runList({}, fake.ctx);
    const lines = fake.io.stdoutText().trim().split(/\r?\n/);
    expect(lines[0]!.startsWith('number,')).toBe(true);
    expect(lines).toHaveLength(51);
  });

  it('passes the signal: a list may be cut short', async () => {
    const interrupt = new AbortController();
    interrupt.abort();
    const fake = createFake({ handler: pagedService(10), signal: interrupt.signal });
    await expect(runList({}, fake.ctx)).rejects.toThrow(/interrupted/);
    // The request was given a signal that follows Ctrl-C (and the list's own early end).
    expect(fake.calls[0]!.opts?.signal?.aborted).toBe(true);
  });

  it(
    'a failing later page leaves JSON and CSV that do not parse, so a script cannot take them for the ' + 'whole list',
    async () => {
      for (const output of ['json', 'csv'] as const) {
        const inner = pagedService(100);
        const fake = createFake({
          global: { output },
          handler: (op, body) => {
            if ((body as TrackListFilter).page_no === 2) throw new Error('down');
            return inner(op, body);
          },
        });
        await expect(runList({}, fake.ctx)).rejects.toThrow('down');
        const out = fake.io.stdoutText();
        // The first page did arrive...
        expect(out.split('\n').length).toBeGreaterThan(40);
        // ...but the output as a whole is refused by a parser.
        if (output === 'json') expect(() => JSON.parse(out)).toThrow();
        else expect(() => parse(out, { columns: true })).toThrow(/Quote Not Closed/);
      }
    },
  );

  it('a failing first page writes nothing at all, in JSON and CSV', async () => {
    for (const output of ['json', 'csv'] as const) {
      const fake = createFake({
        global: { output },
        handler: () => {
          throw new Error('down');
        },
      });
      await expect(runList({}, fake.ctx)).rejects.toThrow('down');
      expect(fake.io.stdoutText()).toBe('');
    }
  });

  it('a complete CSV list parses, header first', async () => {
    const fake = createFake({ global: { output: 'csv' }, handler: pagedService(45) });
    await runList({}, fake.ctx);
    expect(parse(fake.io.stdoutText(), { columns: true })).toHaveLength(45);
  });

  it('v1 cannot filter by origin: refused before sending', async () => {
    const fake = createFake({ version: 'v1', handler: pagedService(10) });
    await expect(runList({ origin: ['Api'] }, fake.ctx)).rejects.toThrow(/v1 API cannot filter/);
    expect(fake.calls).toHaveLength(0);
  });
});

describe('several values of a filter', () => {
  /** Records by status and carrier; a number under two carriers is two records. */
  function service(): Handler {
    const all = [
      { ...record(1, 'Exception'), register_time: '2025-05-01T00:00:01Z' },
      { ...record(2, 'DeliveryFailure'), register_time: '2025-05-01T00:00:02Z' },
      { ...record(3, 'Exception'), register_time: '2025-05-01T00:00:03Z', carrier: 190012 },
      { ...record(3, 'Exception'), register_time: '2025-05-01T00:00:04Z', carrier: 3011 },
      { ...record(4, 'Delivered'), register_time: '2025-05-01T00:00:05Z', tag: 'order-77' },
      { ...record(5, 'DeliveryFailure'), register_time: '2025-05-01T00:00:06Z', tag: 'ORDER-78' },
    ];
    return (op, body) => {
      if (op === 'gettrackinfo') {
        const items = body as { number: string; carrier?: number }[];
        return {
          code: 0,
          data: {
            accepted: items.map((i) => ({
              number: i.number,
              carrier: i.carrier,
              track_info: {
                latest_status: {
                  status: 'Exception',
                  sub_status: i.number.endsWith('3') ? 'Exception_Returned' : 'Exception_Lost',
                },
              },
            })),
            rejected: [],
          },
        };
      }
      const f = body as TrackListFilter;
      const matching = all.filter(
        (r) =>
          (f.package_status === undefined || r.package_status === f.package_status) &&
          (f.carrier === undefined || r.carrier === f.carrier),
      );
      return {
        code: 0,
        page: { data_total: matching.length, page_total: 1, page_no: 1, page_size: 40 },
        data: { accepted: matching },
      };
    };
  }
  const numbers = (fake: { io: { stdoutText(): string } }) =>
    (JSON.parse(fake.io.stdoutText()) as { number: string; carrier: number }[]).map((r) => `${r.number}/${r.carrier}`);

  it('mean any of them: one query per value, merged in registration order', async () => {
    const fake = createFake({ handler: service(), global: { output: 'json' } });
    await runList({ status: ['Exception', 'DeliveryFailure'] }, fake.ctx);
    expect(fake.calls.map((c) => (c.body as TrackListFilter).package_status)).toEqual(['Exception', 'DeliveryFailure']);
    expect(numbers(fake)).toEqual([
      'NUM000001/3011',
      'NUM000002/3011',
      'NUM000003/190012',
      'NUM000003/3011',
      'NUM000005/3011',
    ]);
  });

  it('every combination of two filters is a query; a record matching two queries is printed once', async () => {
    const fake = createFake({ handler: service(), global: { output: 'json' } });
    await runList({ status: ['Exception', 'Exception'], carrier: [3011, 190012] }, fake.ctx);
    expect(fake.calls).toHaveLength(4);
    expect(numbers(fake)).toEqual(['NUM000001/3011', 'NUM000003/190012', 'NUM000003/3011']);
  });

  it('too many combinations are refused before anything is sent', async () => {
    const fake = createFake({ handler: service() });
    const statuses = [
      'NotFound',
      'InfoReceived',
      'InTransit',
      'Expired',
      'AvailableForPickup',
      'OutForDelivery',
      'DeliveryFailure',
      'Delivered',
      'Exception',
    ];
    await expect(runList({ status: statuses, carrier: [1, 2, 3, 4, 5, 6] }, fake.ctx)).rejects.toThrow(
      /54 queries .* at most 50/,
    );
    expect(fake.calls).toHaveLength(0);
  });

  it('--tag is checked here, whatever the case, with * for any text', async () => {
    const fake = createFake({ handler: service(), global: { output: 'json' } });
    await runList({ tag: ['order-7*'] }, fake.ctx);
    expect(numbers(fake)).toEqual(['NUM000004/3011', 'NUM000005/3011']);
    expect(fake.calls.every((c) => !('tag' in (c.body as object)))).toBe(true);
  });

  it(
    '--sub-status asks for its main status and reads the sub-status from the tracking details of ' + 'each page',
    async () => {
      const fake = createFake({ handler: service(), global: { output: 'json' } });
      await runList({ subStatus: ['Exception_Returned'] }, fake.ctx);
      expect(fake.calls.map((c) => c.op)).toEqual(['gettracklist', 'gettrackinfo']);
      expect(fake.calls[0]!.body).toMatchObject({ package_status: 'Exception' });
      expect(fake.calls[1]!.body).toEqual([
        { number: 'NUM000001', carrier: 3011 },
        { number: 'NUM000003', carrier: 190012 },
        { number: 'NUM000003', carrier: 3011 },
      ]);
      expect(numbers(fake)).toEqual(['NUM000003/190012', 'NUM000003/3011']);
      await expect(
        runList({ status: ['Delivered'], subStatus: ['Exception_Lost'] }, createFake({ handler: service() }).ctx),
      ).rejects.toThrow(/no record can be Delivered with sub-status Exception_Lost/);
    },
  );
});

describe('on a terminal', () => {
  it('stops at 100 records and says how to see every one; --all and piped output list them all', async () => {
    const tty = createFake({ handler: pagedService(300), tty: true, env: { TRK_PAGER: '' } });
    await runList({}, tty.ctx);
    expect(tty.calls).toHaveLength(3);
    expect(tty.io.stdoutText().trim().split('\n')).toHaveLength(101);
    expect(tty.io.stderrText()).toContain('showing 100 of 300: --all for every record');
    const all = createFake({ handler: pagedService(300), tty: true, env: { TRK_PAGER: '' } });
    await runList({ all: true }, all.ctx);
    expect(all.io.stdoutText().trim().split('\n')).toHaveLength(301);
    expect(all.io.stderrText()).toContain('300 records');
    const piped = createFake({ handler: pagedService(300) });
    await runList({}, piped.ctx);
    expect(piped.io.stdoutText().trim().split('\n')).toHaveLength(300);
  });

  it('--all with --limit or --page, and --every without --watch, are refused', async () => {
    for (const opts of [{ all: true, limit: 5 }, { all: true, page: 2 }, { every: 1000 }]) {
      const fake = createFake({ handler: pagedService(10) });
      await expect(runList(opts, fake.ctx)).rejects.toThrow(UsageError);
      expect(fake.calls).toHaveLength(0);
    }
  });

  it('draws a page counter on stderr while pages come, and clears it', async () => {
    const fake = createFake({ handler: pagedService(300), tty: true, env: { TRK_PAGER: '' } });
    await runList({ all: true }, fake.ctx);
    const err = fake.io.stderrText();
    expect(err).toContain('page 1 of 8');
    expect(err).toContain('page 7 of 8');
    expect(err).not.toContain('page 8 of 8');
    expect(err).toMatch(/\r\x1b\[2K300 records\n$/);
  });
});

describe('--watch', () => {
  it('looks again until every record is delivered, printing the list again when it changed', async () => {
    let looks = 0;
    const handler: Handler = () => {
      looks += 1;
      const status = looks >= 3 ? 'Delivered' : 'InTransit';
      return {
        code: 0,
        page: { data_total: 2, page_total: 1, page_no: 1, page_size: 40 },
        data: { accepted: [record(1, status), record(2, looks >= 2 ? 'Delivered' : 'InTransit')] },
      };
    };
    const fake = createFake({ handler, global: { output: 'ndjson' } });
    expect(await runList({ watch: true, every: 5 }, fake.ctx)).toBe(0);
    expect(looks).toBe(3);
    const lines = fake.io
      .stdoutText()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { package_status: string });
    expect(lines.map((l) => l.package_status)).toEqual([
      'InTransit',
      'InTransit',
      'InTransit',
      'Delivered',
      'Delivered',
      'Delivered',
    ]);
    expect(fake.io.stderrText()).toContain('2 of 2 delivered: done watching');
  });

  it(
    '--status OutForDelivery: records that leave the filter are looked up by number, and it stops once all ' +
      'are final',
    async () => {
      // Look 1: both out for delivery; look 2: NUM000001 delivered; look 3: both delivered (none match any more).
      let looks = 0;
      const statusAt = (n: number, look: number) => (look >= (n === 1 ? 2 : 3) ? 'Delivered' : 'OutForDelivery');
      const handler: Handler = (_op, body) => {
        const f = body as TrackListFilter;
        if (f.number === undefined) looks += 1;
        if (looks > 6) throw new Error('still watching after every record was delivered');
        const all = [1, 2].map((n) => record(n, statusAt(n, looks)));
        const asked = f.number?.split(',');
        const accepted = all.filter((r) => (asked ? asked.includes(r.number) : r.package_status === f.package_status));
        return {
          code: 0,
          page: { data_total: accepted.length, page_total: 1, page_no: 1, page_size: 40 },
          data: { accepted },
        };
      };
      const fake = createFake({ handler, global: { output: 'ndjson' } });
      expect(await runList({ status: ['OutForDelivery'], watch: true, every: 5 }, fake.ctx)).toBe(0);
      expect(looks).toBe(3);
      // The lookups ask only for what left the filter and is not known to be final yet.
      expect(fake.sent('gettracklist').filter((b) => (b as TrackListFilter).number !== undefined)).toEqual([
        { number: 'NUM000001', page_no: 1 },
        { number: 'NUM000002', page_no: 1 },
      ]);
      expect(fake.io.stderrText()).toContain('2 of 2 delivered (2 no longer match the filters): done watching');
      expect(fake.io.stderrText()).not.toContain('no records yet');
    },
  );
});

describe('trk list: the command line', () => {
  it('list with every filter', async () => {
    const { calls } = await runLine(
      [
        'list',
        '--status',
        'Delivered',
        '--carrier',
        '3011',
        '--tracking',
        'Tracking',
        '--origin',
        'Api',
        '--registered-since',
        '2025-05-01',
        '--registered-until',
        '2025-05-31T23:59:59Z',
        '--tracked-since',
        '2025-05-02',
        '--tracked-until',
        '2025-05-03',
        '--pushed-since',
        '2025-05-04',
        '--pushed-until',
        '2025-05-05',
        '--push-status',
        'Failure',
        '--push-code',
        '500',
        '--stopped-since',
        '2025-05-06',
        '--stopped-until',
        '2025-05-07',
        '--number',
        'AAA11111,BBB22222',
        '--number',
        'CCC33333',
        '--order-by',
        'PushTimeDesc',
        '--page',
        '2',
      ],
      { handler: () => ({ code: 0, data: { accepted: [] } }) },
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual({
      package_status: 'Delivered',
      carrier: 3011,
      tracking_status: 'Tracking',
      data_origin: 'Api',
      register_time_from: '2025-05-01T00:00:00Z',
      register_time_to: '2025-05-31T23:59:59Z',
      track_time_from: '2025-05-02T00:00:00Z',
      track_time_to: '2025-05-03T00:00:00Z',
      push_time_from: '2025-05-04T00:00:00Z',
      push_time_to: '2025-05-05T00:00:00Z',
      push_status: 'Failure',
      push_status_code: 500,
      stop_track_time_from: '2025-05-06T00:00:00Z',
      stop_track_time_to: '2025-05-07T00:00:00Z',
      number: 'AAA11111,BBB22222,CCC33333',
      order_by: 'PushTimeDesc',
      page_no: 2,
    });
  });
});

describe('trk list against the emulator: every page, filters, formats', () => {
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

describe('trk list: carrier names beside codes', () => {
  const parse = withCachedLists();

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
});

// trk report on a mirror of the report fixtures (no service at all: the report sends nothing, and needs no key):
// every output format, the filters, the mirror's age, bad input, and the report in a terminal of 60, 80 and 120
// columns (the built CLI in a pseudo-terminal); the same report of the same mirror in PostgreSQL.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite.js';
import { writeFixtureMirror } from '../../report/fixture-mirror.js';
import { baseEnv, parseCsv, trk } from '../../e2e/helpers.js';
import { hasScript, trkInTerminal } from '../../e2e/terminal.js';
import { textWidth } from '../../../src/output/width.js';
import { STORE_KINDS } from '../../store/kinds.js';

let db: string;
const env = baseEnv();
const report = (...args: string[]) => trk(['report', '--db', db, ...args], { env });

beforeAll(async () => {
  db = path.join(mkdtempSync(path.join(tmpdir(), 'trk-report-e2e-')), 'mirror.db');
  const store = await SqliteStore.open(db);
  await writeFixtureMirror(store);
  await store.close();
});

describe('trk report', () => {
  it('prints {synced_at, since, by, groups} with --json, and says how old the mirror is', async () => {
    const r = await report('--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['synced_at', 'since', 'by', 'groups']);
    expect(out).toMatchObject({ synced_at: '2026-06-20T11:00:00.000Z', since: null, by: 'carrier' });
    expect(out.groups.map((g: { carrier: number; registered: number }) => [g.carrier, g.registered])).toEqual([
      [3011, 9],
      [100003, 6],
    ]);
    expect(out.groups[0].transit_days).toEqual({ n: 5, p50: 10, p90: 17.6, mean: 11.2, min: 5, max: 20 });
    // Synced months ago: a word to sync first; carriers by code, and how to get their names.
    expect(r.stderr).toMatch(/mirror synced \d+d ago \(2026-06-20T11:00:00Z\)/);
    expect(r.stderr).toMatch(/over a day old: "trk sync" updates it/);
    expect(r.stderr).toMatch(/carriers by code: "trk carriers" fetches their names/);
  });

  it(
    'groups by lane, carrier and lane, week and month, and filters by registration, carrier and ' + 'countries',
    async () => {
      const groups = async (...args: string[]) => {
        const r = await report('--json', ...args);
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(r.stdout).groups as Record<string, unknown>[];
      };
      expect((await groups('--by', 'lane')).map((g) => `${g.origin}>${g.destination}`)).toEqual([
        'CN>US',
        'CN>DE',
        'US>US',
      ]);
      expect(await groups('--by', 'carrier,lane')).toHaveLength(4);
      expect((await groups('--by', 'week')).map((g) => g.week)).toEqual(['2026-05-25', '2026-06-01', '2026-06-08']);
      expect((await groups('--by', 'MONTH')).map((g) => g.month)).toEqual(['2026-05', '2026-06']);
      expect((await groups('--since', '2026-06-08')).map((g) => g.registered)).toEqual([5, 4]);
      expect((await groups('--carrier', '100003', '--by', 'lane', '--to', 'us')).map((g) => g.registered)).toEqual([
        4, 2,
      ]);
      expect(await groups('--from', 'CN', '--from', 'US', '--to', 'DE,US', '--by', 'lane')).toHaveLength(3);
    },
  );

  it('prints one row per group in CSV, NDJSON and piped tab-separated lines', async () => {
    const csv = await report('--csv', '--by', 'lane');
    const rows = parseCsv(csv.stdout);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      origin: 'CN',
      destination: 'US',
      registered: '7',
      transit_days_p90: '13.6',
      on_time_rate: '0.5',
    });
    const ndjson = (await report('-o', 'ndjson')).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(ndjson.map((g) => g.carrier)).toEqual([3011, 100003]);
    expect(ndjson[1]).toMatchObject({ delivery_failures: 1, on_time_rate: 0.5, transit_days: { p50: 2.5, p90: 2.9 } });
    const tsv = (await report()).stdout.trim().split('\n');
    expect(tsv.map((l) => l.split('\t').slice(0, 3))).toEqual([
      ['3011', '', '9'],
      ['100003', '', '6'],
    ]);
  });

  it('writes the page to stdout with --html -', async () => {
    const r = await report('--html', '-');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^<!doctype html>/);
    expect(r.stdout).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import|url\(http/);
    expect(r.stdout.match(/<svg /g)).toHaveLength(6);
  });

  it('refuses bad input with one line, exit 2, and nothing on stdout', async () => {
    const cases: [string[], RegExp][] = [
      [['--by', 'day'], /--by.*Allowed choices are carrier, lane, carrier,lane, week, month/],
      [['--since', 'last tuesday'], /--since "last tuesday" is not a time/],
      [['--stuck-days', '0'], /--stuck-days must be a positive integer/],
      [['-o', 'ids'], /ids/],
      [['--html', ''], /--html is empty/],
      [['--db', path.join(tmpdir(), 'no-such-mirror.db')], /no mirror at .*run "trk sync" first/],
    ];
    for (const [args, message] of cases) {
      const r = await report(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
  });

  it.skipIf(!hasScript())(
    'fits a terminal of 60, 80 and 120 columns',
    async () => {
      for (const columns of [60, 80, 120]) {
        const r = await trkInTerminal(['report', '--db', db, '--no-pager', '--by', 'carrier,lane'], {
          env,
          columns,
          rows: 80,
        });
        expect(r.code).toBe(0);
        const wide = r.screen.split('\n').filter((l) => textWidth(l) > columns);
        expect(wide, `${columns} columns:\n${r.screen}`).toEqual([]);
        expect(r.screen).toContain('15 parcels by carrier and lane');
        expect(r.screen).toMatch(/Transit days of delivered parcels/);
        expect(r.screen).toMatch(/Registered a week, 2026-05-25 to 2026-06-08, 3 weeks/);
        expect(r.screen).toMatch(/Stuck, no news for 7 days or more: 5/);
        expect(r.screen).toContain('1Z0000000000000003');
      }
    },
    60_000,
  );
});

const postgres = STORE_KINDS.find((k) => k.name === 'PostgreSQL')!;

describe.skipIf(postgres.missing !== undefined)('trk report on a mirror in PostgreSQL', () => {
  it('prints what it prints of the same mirror in a file, in every format and grouping', async () => {
    const location = await postgres.fresh();
    await writeFixtureMirror(await postgres.open(location));
    const formats = [
      ['--json'],
      ['--csv', '--by', 'lane'],
      ['-o', 'ndjson', '--by', 'carrier,lane'],
      ['--json', '--by', 'week'],
      ['--by', 'month'],
    ];
    for (const args of formats) {
      const [file, server] = await Promise.all([report(...args), trk(['report', '--db', location, ...args], { env })]);
      expect(server.code, server.stderr).toBe(0);
      expect(server.stdout, args.join(' ')).toBe(file.stdout);
      expect(server.stdout).not.toBe('');
    }
  }, 60_000);
});

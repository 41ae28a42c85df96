// Lists and tables as people and scripts get them, against the emulator: in a terminal (through `script`) and
// piped. Paging with a fake pager, widths of 60, 80 and 120 columns, the reader's time zone, -o ids into an item
// command, --columns in every format, several values of a filter, --tag, info of several numbers, --watch.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorList, numbers, parseCsv, startEmulator, trk, type Emulator } from './helpers.js';
import { fakePager, hasScript, trkInTerminal } from './terminal.js';

const DAY = 86_400_000;
let emu: Emulator;
/** Told the simulated time at which each API request answered 200 began (the watch tests). */
const answers = new Set<(atMs: number) => void>();
const registered = numbers(130, 'TB');
const tagOf = (i: number) =>
  i % 10 === 0
    ? 'customer asked to hold the parcel at the depot until the end of the month; call first'
    : `order-${1000 + i}`;

beforeAll(async () => {
  emu = await startEmulator({
    speed: 0,
    onRequest: (entry) => {
      if (entry.status === 200) for (const listener of answers) listener(Date.parse(entry.time));
    },
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'trk-tables-')), 'numbers.csv');
  writeFileSync(file, `number,tag\n${registered.map((n, i) => `${n},${tagOf(i)}`).join('\n')}\n`);
  const r = await trk(['register', '-f', file, '--carrier', '3011', '-q'], { env: emu.env });
  expect(r.code, r.stderr).toBe(0);
  for (let i = 0; i < 20; i++) await emu.sandbox.advance(DAY);
}, 120_000);

afterAll(async () => {
  await emu?.close();
});

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

/**
 * Moves the shipments on `steps` times by `by`, each time once `watching` has had an answer given at the state
 * the last move made: it looks at every state, whatever the pace of the machine. Ends early when the watch does.
 */
async function moveOnWhileWatched(watching: Promise<unknown>, steps: number, by: number): Promise<void> {
  const ended = watching.then(
    () => 'ended' as const,
    () => 'ended' as const,
  );
  for (let step = 0; step < steps; step++) {
    const since = Math.trunc(emu.sandbox.state().timeMs);
    let listener = (_atMs: number) => {};
    const looked = new Promise<'looked'>((resolve) => {
      listener = (atMs) => {
        if (atMs >= since) resolve('looked');
      };
      answers.add(listener);
    });
    const next = await Promise.race([looked, ended]).finally(() => answers.delete(listener));
    if (next === 'ended') return;
    await emu.sandbox.advance(by);
  }
}

describe.runIf(hasScript())('in a terminal', () => {
  it('list: the first 100 records through the pager, then how to see every one', async () => {
    const pager = fakePager();
    const r = await trkInTerminal(['list'], { env: { ...emu.env, TRK_PAGER: pager.command }, columns: 80 });
    expect(r.code, r.screen).toBe(0);
    const paged = lines(readFileSync(pager.file, 'utf8'));
    expect(paged[0]).toMatch(/^NUMBER +CARRIER +STATUS +TRACKING/);
    expect(paged).toHaveLength(101);
    // The rows went to the pager, not past it; the status line came after it.
    expect(r.screen).not.toContain(registered[0]);
    expect(r.screen).toContain('showing 100 of 130: --all for every record');
  });

  it('a reader who quits the pager early stops the listing: no more pages are fetched', async () => {
    const pager = fakePager({ lines: 3 });
    const before = emu.requests();
    const r = await trkInTerminal(['list', '--all'], { env: { ...emu.env, TRK_PAGER: pager.command }, columns: 80 });
    expect(r.code, r.screen).toBe(0);
    expect(lines(readFileSync(pager.file, 'utf8'))).toHaveLength(3);
    expect(emu.requests() - before).toBeLessThan(4);
    expect(r.screen).not.toMatch(/trk:|records/);
  });

  it.each([60, 80, 120])(
    '--no-pager at %i columns: rows straight on the terminal under a page counter, every line fits',
    async (columns) => {
      const r = await trkInTerminal(['list', '--all', '--no-pager'], { env: emu.env, columns });
      expect(r.code, r.screen).toBe(0);
      expect(r.raw).toContain('page 1 of 4');
      expect(r.raw).toContain('page 3 of 4');
      const shown = lines(r.screen);
      expect(shown[0]).toMatch(/^NUMBER +CARRIER +STATUS +TRACKING/);
      expect(shown.filter((l) => /^TB\d/.test(l))).toHaveLength(130);
      expect(shown[shown.length - 1]).toBe('130 records');
      for (const l of shown) expect(l.length, l).toBeLessThanOrEqual(columns);
      // The long tag is shortened, not the reason for leaving columns out.
      if (columns >= 80) {
        expect(shown[0]).toMatch(/\bTAG\b/);
        expect(r.screen).toMatch(/customer asked.*…/);
      }
    },
  );

  it('times in the zone of TZ with the offset shown, or as ages; machine formats stay ISO 8601', async () => {
    const kolkata = await trkInTerminal(['list', '--limit', '2', '--columns', 'number,registered', '--no-pager'], {
      env: { ...emu.env, TZ: 'Asia/Kolkata' },
      columns: 80,
    });
    expect(lines(kolkata.screen)[1]).toMatch(/^TB\d+CN +\d{4}-\d\d-\d\d \d\d:\d\d \+05:30$/);
    const ny = await trkInTerminal(['list', '--limit', '2', '--columns', 'number,registered', '--no-pager'], {
      env: { ...emu.env, TZ: 'America/New_York' },
      columns: 80,
    });
    expect(lines(ny.screen)[1]).toMatch(/ -0[45]:00$/);
    const ages = await trkInTerminal(
      ['list', '--limit', '2', '--columns', 'number,registered', '--relative', '--no-pager'],
      { env: emu.env, columns: 80 },
    );
    // Registered at the emulator's start, which is the real clock's now (ages count from the real clock here).
    expect(lines(ages.screen)[1]).toMatch(/^TB\d+CN +(just now|\d+[mhd] ago)$/);
    const csv = await trk(['list', '--limit', '2', '--columns', 'number,registered', '--csv'], {
      env: { ...emu.env, TZ: 'Asia/Kolkata' },
    });
    expect(parseCsv(csv.stdout)[0]!.registered).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('info: one number as a tracking page, several as a compact table, --page as pages', async () => {
    const one = await trkInTerminal(['info', registered[1]!, '--no-pager'], { env: emu.env, columns: 80 });
    expect(one.code, one.screen).toBe(0);
    expect(one.screen).toMatch(new RegExp(`^${registered[1]}  ·  3011`, 'm'));
    const several = await trkInTerminal(['info', ...registered.slice(1, 4), '--no-pager'], {
      env: emu.env,
      columns: 100,
    });
    const table = lines(several.screen).filter((l) => /^(NUMBER|TB\d)/.test(l));
    expect(table[0]).toMatch(/^NUMBER +(CARRIER +)?STATUS +SUB-STATUS +LAST EVENT/);
    expect(table.slice(1).map((l) => l.split(/ +/)[0])).toEqual(registered.slice(1, 4));
    const pages = await trkInTerminal(['info', ...registered.slice(1, 3), '--page', '--no-pager'], {
      env: emu.env,
      columns: 80,
    });
    expect(pages.screen.match(/^Progress$/gm)).toHaveLength(2);
  });

  it('quota: counts with thousands separators in the table, bare in piped output', async () => {
    const table = await trkInTerminal(['quota'], { env: emu.env, columns: 80 });
    expect(table.screen).toMatch(/Quota left +\d{1,3}(,\d{3})+/);
    const piped = await trk(['quota'], { env: emu.env });
    expect(piped.stdout).toMatch(/^quota_remain\t\d{4,}$/m);
  });
});

describe('piped', () => {
  it('list: every record, no limit and no pager', async () => {
    const pager = fakePager();
    const r = await trk(['list'], { env: { ...emu.env, TRK_PAGER: pager.command } });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toHaveLength(130);
    expect(existsSync(pager.file)).toBe(false);
  });

  it('-o ids: number<TAB>carrier lines that an item command reads back', async () => {
    const ids = await trk(['list', '--limit', '5', '-o', 'ids'], { env: emu.env });
    expect(lines(ids.stdout)).toEqual(registered.slice(0, 5).map((n) => `${n}\t3011`));
    const push = await trk(['info', '--json'], { env: emu.env, input: ids.stdout });
    expect(push.code, push.stderr).toBe(0);
    expect((JSON.parse(push.stdout) as { accepted: { number: string }[] }).accepted.map((a) => a.number)).toEqual(
      registered.slice(0, 5),
    );
  });

  it(
    '--columns (and --fields) pick columns in TSV, CSV, JSON and NDJSON; a wrong name is refused, ' + 'nothing sent',
    async () => {
      const args = ['list', '--limit', '3', '--columns', 'number,status,tag'];
      const tsv = await trk(args, { env: emu.env });
      expect(lines(tsv.stdout)[1]).toBe(`${registered[1]}\t${lines(tsv.stdout)[1]!.split('\t')[1]}\torder-1001`);
      expect(lines(tsv.stdout).every((l) => l.split('\t').length === 3)).toBe(true);
      const csv = await trk([...args, '--csv'], { env: emu.env });
      expect(Object.keys(parseCsv(csv.stdout)[0]!)).toEqual(['number', 'status', 'tag']);
      const json = await trk(['list', '--limit', '3', '--fields', 'number,tag', '--json'], { env: emu.env });
      expect(JSON.parse(json.stdout)[1]).toEqual({ number: registered[1], tag: 'order-1001' });
      const ndjson = await trk([...args, '-o', 'ndjson'], { env: emu.env });
      expect(Object.keys(JSON.parse(lines(ndjson.stdout)[0]!))).toEqual(['number', 'status', 'tag']);
      const before = emu.requests();
      const bad = await trk(['list', '--columns', 'number,colour'], { env: emu.env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^trk: .*unknown column "colour"; the columns are number, carrier,/);
      expect(emu.requests()).toBe(before);
    },
  );

  it('several values of a filter mean any of them, each record once; values in any case', async () => {
    const [delivered, transit] = await Promise.all([
      emulatorList(emu, { package_status: 'Delivered' }),
      emulatorList(emu, { package_status: 'InTransit' }),
    ]);
    expect(delivered.length).toBeGreaterThan(0);
    expect(transit.length).toBeGreaterThan(0);
    const r = await trk(['list', '--status', 'delivered', '--status', 'INTRANSIT', '--json'], { env: emu.env });
    expect(r.code, r.stderr).toBe(0);
    const got = (JSON.parse(r.stdout) as { number: string }[]).map((x) => x.number);
    expect(new Set(got).size).toBe(got.length);
    expect([...got].sort()).toEqual([...delivered, ...transit].map((x) => x.number as string).sort());
    const comma = await trk(['list', '--status', 'Delivered,InTransit', '--json'], { env: emu.env });
    expect((JSON.parse(comma.stdout) as unknown[]).length).toBe(got.length);
  });

  it('--tag matches whole tags, any case, * for any text; checked by trk on every page', async () => {
    const r = await trk(['list', '--tag', 'ORDER-101*', '-o', 'ids'], { env: emu.env });
    expect(r.code, r.stderr).toBe(0);
    const want = registered.filter((_, i) => /^order-101/.test(tagOf(i)));
    expect(lines(r.stdout).map((l) => l.split('\t')[0])).toEqual(want);
  });

  it('list --status InTransit --watch ends once the parcels it showed are delivered, though they left ' +
    'the filter', async () => {
    // One whose journey (the emulator's, seeded by the number) goes InfoReceived, InTransit, Delivered.
    const number = numbers(5, 'WA')[4]!;
    const reg = await trk(['register', number, '--carrier', '3011', '-q'], { env: emu.env });
    expect(reg.code, reg.stderr).toBe(0);
    const watching = trk(
      ['list', '--number', number, '--status', 'InTransit', '--watch', '--every', '1s', '-o', 'ndjson'],
      { env: emu.env },
    );
    await moveOnWhileWatched(watching, 15, 2 * DAY);
    const r = await watching;
    expect(r.code, r.stderr).toBe(0);
    // It was seen in transit, and is delivered (or returned) now: no longer in the list, yet the watch ended.
    expect(lines(r.stdout).map((l) => (JSON.parse(l) as { number: string }).number)).toContain(number);
    expect(r.stderr).toMatch(/(delivered|returned) \(1 no longer matches the filters\): done watching/);
  }, 60_000);

  it('info --watch ends when the shipment is delivered', async () => {
    const number = numbers(1, 'WA')[0]!;
    const reg = await trk(['register', number, '--carrier', '3011', '-q'], { env: emu.env });
    expect(reg.code, reg.stderr).toBe(0);
    const watching = trk(['info', number, '--watch', '--every', '1s', '-o', 'ndjson'], { env: emu.env });
    // The shipment moves on while it is watched: a month of simulated time, a few days at a time.
    await moveOnWhileWatched(watching, 15, 2 * DAY);
    const r = await watching;
    expect(r.code, r.stderr).toBe(0);
    const looks = lines(r.stdout).map((l) => JSON.parse(l) as { track_info: { latest_status: { status: string } } });
    expect(looks.length).toBeGreaterThan(1);
    expect(['Delivered', 'Exception']).toContain(looks[looks.length - 1]!.track_info.latest_status.status);
    expect(r.stderr).toMatch(/done watching/);
  }, 60_000);
});

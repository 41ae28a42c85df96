// What `trk changes` and `trk find` print of a parcel: carriers by name in tables (from the list shipped with trk:
// no cached list here, and the lists' address is a closed port), and the customer's references (order number, tag,
// e-mail, and CUSTOMER, the one a report names it by) as columns, from the registry of record fields. The table of
// parcels in trouble at 60, 80 and 120 columns as golden files (test/golden/terminal/<width>/), times made constant.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbers, parseCsv, startEmulator, trk, type Emulator } from './helpers.js';
import { HOUR, START, register, sync } from './mirror-helpers.js';
import { hasScript, trkInTerminal } from './terminal.js';

let emu: Emulator;
let env: NodeJS.ProcessEnv;
const list = numbers(12, 'LA');

beforeAll(async () => {
  emu = await startEmulator({ speed: 0, start: START });
  env = { ...emu.env, TRK_DATA_DIR: path.join(String(emu.env.HOME), 'data'), TRK_API_VERSION: 'v2.1', TZ: 'UTC' };
  await register(emu, env, list, 6);
  await emu.sandbox.advance(3 * 24 * HOUR);
  await sync(env);
  await emu.sandbox.advance(4 * 24 * HOUR);
  expect((await sync(env)).changes).toBeGreaterThan(0);
}, 120_000);

afterAll(async () => {
  await emu?.close();
});

/** The references register() gave the i-th number. */
const references = (number: string) => {
  const i = list.indexOf(number);
  return { tag: `order-${i}`, order_no: `#${10000 + i}`, email: `customer${i}@example.com` };
};

describe('trk changes', () => {
  it('offers the parcel’s order number, tag, e-mail and customer reference as columns', async () => {
    const r = await trk(['changes', '--columns', 'number,order_no,tag,email,customer', '--csv'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const refs = references(row.number!);
      expect(row).toEqual({ number: row.number, ...refs, customer: refs.order_no });
    }
  });

  it('names carriers in tables, keeps their codes in machine formats', async () => {
    const table = await trk(['changes', '-o', 'table'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/ LA\S+ +3011 China Post /);
    const csv = parseCsv((await trk(['changes', '--csv'], { env })).stdout);
    expect(csv.every((row) => row.carrier === '3011')).toBe(true);
  });

  it('says in its help in which order it prints them: learnt, which cursors follow; not "oldest first"', async () => {
    const help = await trk(['help', 'changes'], { env });
    expect(help.stdout).not.toMatch(/oldest\s+first/);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/in the order it learnt them, which cursors follow/);
  });
});

describe('trk find', () => {
  it('offers the order number, e-mail and customer reference beside the details', async () => {
    const number = list[3]!;
    const r = await trk(['find', '#10003', '--columns', 'number,carrier,tag,order_no,email,customer', '--csv'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const refs = references(number);
    expect(parseCsv(r.stdout)).toEqual([{ number, carrier: '3011', ...refs, customer: refs.order_no }]);
  });

  it('names carriers in its table from the shipped list', async () => {
    const r = await trk(['find', 'order-', '-o', 'table'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('LA'));
    expect(rows).toHaveLength(12);
    for (const row of rows) expect(row).toMatch(/^LA\S+ .*3011 China Post/);
  });
});

/** Rows in a constant order, times and ages as nines: the layout alone. */
function constant(screen: string): string {
  const lines = screen.split('\n').filter((l) => l.trim() !== '' && !/ changes? · mirror /.test(l));
  const [header = '', ...rows] = lines;
  const times = (l: string) => l.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, '2026-01-01 00:00');
  return [header, ...rows.map(times).sort()].join('\n');
}

describe.runIf(hasScript())('parcels in trouble at 60, 80 and 120 columns', () => {
  it.each([60, 80, 120])('%i columns: carriers by name, every line fits', async (columns) => {
    const r = await trkInTerminal(['changes', '--status', 'InTransit,Exception,DeliveryFailure'], {
      env,
      columns,
    });
    expect(r.code, r.screen).toBe(0);
    const shown = constant(r.screen);
    for (const l of shown.split('\n')) expect(l.length, l).toBeLessThanOrEqual(columns);
    expect(shown).toMatch(/(^| )LA\S+ +3011 China/m);
    await expect(shown).toMatchFileSnapshot(`../golden/terminal/${columns}/changes-trouble.txt`);
  });
});

// What `trk changes` prints of a parcel: carriers by name in tables, and the customer's references (order number,
// tag, e-mail, and CUSTOMER, the one a report names it by) as columns, from the registry of record fields. The table
// of parcels in trouble at 60, 80 and 120 columns as golden files (test/golden/terminal/<width>/), times made constant.
import { describe, expect, it } from 'vitest';
import { parseCsv, trk } from '../../e2e/helpers.js';
import { hasScript, trkInTerminal } from '../../e2e/terminal.js';
import { syncedMirror } from './synced-mirror.js';

const mirror = syncedMirror();

describe('trk changes', () => {
  it('offers the parcel’s order number, tag, e-mail and customer reference as columns', async () => {
    const r = await trk(['changes', '--columns', 'number,order_no,tag,email,customer', '--csv'], { env: mirror.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const refs = mirror.references(row.number!);
      expect(row).toEqual({ number: row.number, ...refs, customer: refs.order_no });
    }
  });

  it('names carriers in tables, keeps their codes in machine formats', async () => {
    const table = await trk(['changes', '-o', 'table'], { env: mirror.env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/ LA\S+ +3011 China Post /);
    const csv = parseCsv((await trk(['changes', '--csv'], { env: mirror.env })).stdout);
    expect(csv.every((row) => row.carrier === '3011')).toBe(true);
  });

  it('says in its help in which order it prints them: learnt, which cursors follow; not "oldest first"', async () => {
    const help = await trk(['help', 'changes'], { env: mirror.env });
    expect(help.stdout).not.toMatch(/oldest\s+first/);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/in the order it learnt them, which cursors follow/);
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
      env: mirror.env,
      columns,
    });
    expect(r.code, r.screen).toBe(0);
    const shown = constant(r.screen);
    for (const l of shown.split('\n')) expect(l.length, l).toBeLessThanOrEqual(columns);
    expect(shown).toMatch(/(^| )LA\S+ +3011 China/m);
    await expect(shown).toMatchFileSnapshot(`../../golden/terminal/${columns}/changes-trouble.txt`);
  });
});

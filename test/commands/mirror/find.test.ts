// What `trk find` prints of a parcel: the customer's references beside the details, carriers by name in its table.
import { describe, expect, it } from 'vitest';
import { parseCsv, trk } from '../../e2e/helpers.js';
import { syncedMirror } from './synced-mirror.js';

const mirror = syncedMirror();

describe('trk find', () => {
  it('offers the order number, e-mail and customer reference beside the details', async () => {
    const number = mirror.list[3]!;
    const r = await trk(['find', '#10003', '--columns', 'number,carrier,tag,order_no,email,customer', '--csv'], {
      env: mirror.env,
    });
    expect(r.code, r.stderr).toBe(0);
    const refs = mirror.references(number);
    expect(parseCsv(r.stdout)).toEqual([{ number, carrier: '3011', ...refs, customer: refs.order_no }]);
  });

  it('names carriers in its table from the shipped list', async () => {
    const r = await trk(['find', 'order-', '-o', 'table'], { env: mirror.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('LA'));
    expect(rows).toHaveLength(12);
    for (const row of rows) expect(row).toMatch(/^LA\S+ .*3011 China Post/);
  });
});

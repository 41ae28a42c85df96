// Golden tables at 60, 80 and 120 columns: what people see of a list, of details of several numbers, and of the
// quota. A change here is a change of what trk looks like: read the diff before updating (vitest -u).
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestIO } from '../test-io.js';
import { COMPACT_DETAILS, detailsColumns, QUOTA_FIELDS, recordColumns } from '../../src/output/columns.js';
import { toDetailsView, toRecordView } from '@trk/service/records.js';
import { printObject, printRows, type Column, type OutputSpec } from '../../src/output/render.js';
import { accepted, fixture, V2_DETAILS } from './fixtures.js';
import { loadTextWidths } from '../../src/output/width.js';

const NOW = Date.parse('2026-07-01T12:00:00Z');
const TIMES = { zone: 'Europe/Berlin', now: NOW };
const NAMES = {
  carrierName: (k: number) => ({ 2151: 'Correios', 3011: 'China Post', 190012: 'Yanwen', 21051: 'USPS' })[k],
};

/** The recorded list page, and records as a busy account has them: long tags, other statuses, Chinese events. */
function records() {
  const [base] = accepted('doc-v2/gettracklist_page.json') as Record<string, unknown>[];
  const more = [
    {
      number: 'RR123456789CN',
      carrier: 3011,
      package_status: 'InTransit',
      tag: 'customer asked to hold the parcel at the depot until the end of the month; call first',
      latest_event_info: '已到达处理中心，正在分拣',
      shipping_country: 'CN',
      recipient_country: 'DE',
    },
    {
      number: 'LX987654321CN',
      carrier: 3011,
      package_status: 'AvailableForPickup',
      tag: 'order-10017',
      tracking_status: 'Stopped',
    },
    {
      number: '9400111899223344556677',
      carrier: 21051,
      package_status: 'Exception',
      tag: null,
      shipping_country: 'US',
      recipient_country: 'US',
      latest_event_info: 'Return to sender',
    },
  ];
  return [...accepted('doc-v2/gettracklist_page.json'), ...more.map((m) => ({ ...base, ...m }))];
}

async function table<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  width: number,
  spec: OutputSpec = {},
): Promise<string> {
  const io = createTestIO({ tty: true, columns: width });
  await printRows(io, rows, columns, { times: TIMES, ...spec });
  return io.stdoutText();
}

// Widths as a terminal draws them, as for a command laying out text for people (src/cli.ts loads them).
beforeAll(loadTextWidths);

describe.each([60, 80, 120])('at %i columns', (width) => {
  it('trk list', async () => {
    const text = await table(
      records().map((r) => toRecordView(r, 'v2.1')),
      recordColumns(NAMES),
      width,
    );
    for (const line of text.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(width);
    // The identifying and state columns are never left out, whatever the width.
    expect(text.split('\n')[0]).toMatch(/^NUMBER +(CARRIER +)?STATUS +TRACKING/);
    expect(text).toMatchSnapshot();
  });

  it('trk list --relative', async () => {
    const text = await table(
      records().map((r) => toRecordView(r, 'v2.1')),
      recordColumns(NAMES),
      width,
      { times: { ...TIMES, relative: true } },
    );
    expect(text).toMatchSnapshot();
  });

  it('trk info of several numbers', async () => {
    const views = V2_DETAILS.flatMap((f) => accepted(f)).map((i) => toDetailsView(i, 'v2.1'));
    const all = detailsColumns(NAMES);
    const compact = COMPACT_DETAILS.map((k) => all.find((c) => c.key === k)!);
    const text = await table(views, compact, width);
    expect(text.split('\n')[0]).toMatch(/^NUMBER +STATUS +SUB-STATUS/);
    expect(text).toMatchSnapshot();
  });

  it('trk quota', async () => {
    const io = createTestIO({ tty: true, columns: width });
    await printObject(
      io,
      { ...fixture('doc-v2/getquota.json').data, quota_total: 1_000_000, quota_used: 6_058, quota_remain: 993_942 },
      QUOTA_FIELDS,
      undefined,
    );
    expect(io.stdoutText()).toMatchSnapshot();
  });
});

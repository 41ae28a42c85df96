// How commands call the output module, checked by the type checker (tsc -p test) and run once.
import { describe, expect, it } from 'vitest';
import type {
  ItemResults,
  NumberCarrierAccepted,
  QuotaRecord,
  RegisterAccepted,
  TrackRecord,
} from '@trk/service/types.js';
import { createTestIO } from '../test-io.js';
import { ITEM_COLUMNS, QUOTA_FIELDS, REGISTER_ITEM_COLUMNS, recordColumns } from '../../src/output/columns.js';
import { toRecordView } from '@trk/service/records.js';
import { createRowWriter, printItemResults, printObject } from '../../src/output/render.js';
import { fixture } from './fixtures.js';

describe('call shapes used by commands', () => {
  it('item results of register and of other item commands, quota, paged list', async () => {
    const io = createTestIO();
    const reg: ItemResults<RegisterAccepted> = fixture('doc-v2/register_mixed.json').data;
    await printItemResults(io, reg, REGISTER_ITEM_COLUMNS, undefined);
    const stop: ItemResults<NumberCarrierAccepted> = { accepted: [{ number: 'A12345', carrier: 3011 }], rejected: [] };
    await printItemResults(io, stop, ITEM_COLUMNS, 'csv');
    const quota: QuotaRecord = fixture('doc-v2/getquota.json').data;
    await printObject(io, quota, QUOTA_FIELDS, undefined);
    const w = createRowWriter(io, recordColumns({ carrierName: () => undefined }), 'ndjson');
    const page: TrackRecord[] = fixture('doc-v2/gettracklist_page.json').data.accepted;
    w.write(
      page.map((r) => toRecordView(r, 'v2')),
      page,
    );
    await w.end();
    const out = io.stdoutText();
    expect(out).toContain('AA123456789BR\t2151\t2\taccepted');
    expect(out).toContain('A12345,3011,accepted,,,');
    expect(out).toContain('quota_remain\t1098');
    expect(
      out
        .trimEnd()
        .split('\n')
        .slice(-2)
        .map((l) => JSON.parse(l).number),
    ).toEqual(['AA123456789BR', 'YT2616912345678901']);
  });
});

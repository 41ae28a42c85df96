// The columns of `trk changes`: the names `--columns` takes, and the columns they name.

import { columnsByName } from '../../output/columns.js';
import type { Column } from '../../output/render.js';
import type { ChangeRow } from '../../store/types.js';

export const CHANGE_COLUMN_NAMES = [
  'id',
  'detected_at',
  'number',
  'carrier',
  'from',
  'to',
  'from_sub_status',
  'to_sub_status',
  'event_time',
  'source',
] as const;

const time = (header: string, get: (c: ChangeRow) => string | null): Omit<Column<ChangeRow>, 'key'> => ({
  header,
  value: (c) => get(c)?.replace(/\.000Z$/, 'Z') ?? null,
  time: true,
});

/** The columns of a change; JSON prints them by these keys. */
export const CHANGE_COLUMNS: readonly Column<ChangeRow>[] = columnsByName<
  ChangeRow,
  (typeof CHANGE_COLUMN_NAMES)[number]
>(CHANGE_COLUMN_NAMES, {
  id: { header: 'ID', value: (c) => c.id, wide: 9 },
  detected_at: time('DETECTED', (c) => c.detected_at || null),
  number: { header: 'NUMBER', value: (c) => c.number, id: true },
  carrier: { header: 'CARRIER', value: (c) => c.carrier, id: true },
  from: { header: 'FROM', value: (c) => c.from_status },
  to: { header: 'TO', value: (c) => c.to_status },
  from_sub_status: { header: 'FROM SUB-STATUS', value: (c) => c.from_sub_status, wide: 8 },
  to_sub_status: { header: 'SUB-STATUS', value: (c) => c.to_sub_status, wide: 5 },
  event_time: { ...time('EVENT AT', (c) => c.event_time), wide: 6 },
  source: { header: 'SOURCE', value: (c) => c.source, wide: 7 },
});

// Comparing the shape of two JSON answers, as a typed client decodes them: keys, value types, nesting, the
// values of enumerated fields, and the formats of strings (dates and times above all). Values themselves are not
// compared: the emulator tells its own stories. Array elements are merged into one shape per side (the union of
// their keys and types), so that a recorded answer with five items and an emulated one with two compare as lists.
// null fits any type on either side (a nullable field), and an empty string any string format (the service
// sends '' for times it does not know).

import {
  CUSTOMS_SUB_STATUSES,
  DATA_ORIGINS,
  KEY_STAGES,
  PACKAGE_STATUSES,
  PARAM_TYPES,
  PUSH_STATUSES,
  STOP_REASONS,
  SUB_STATUSES_V2,
  TRACKING_STATUSES,
  V1_CARRIER_TRACKING_STATUS,
  V1_PACKAGE_STATUS_CODE,
} from '@trk/service/vocabulary.js';

export type DifferenceKind = 'missing' | 'extra' | 'type' | 'format' | 'enum';

export interface Difference {
  /** `data.accepted[].track.zex.psex`: object keys joined by dots, array elements as `[]`. */
  path: string;
  kind: DifferenceKind;
  detail: string;
}

/** Allowed values of enumerated fields, by key. */
const ENUMS: Readonly<Record<string, readonly unknown[]>> = {
  status: PACKAGE_STATUSES,
  package_status: PACKAGE_STATUSES,
  sub_status: [...Object.values(SUB_STATUSES_V2).flat(), ...CUSTOMS_SUB_STATUSES],
  tracking_status: TRACKING_STATUSES,
  push_status: PUSH_STATUSES,
  stop_track_reason: STOP_REASONS,
  data_origin: DATA_ORIGINS,
  param_type: PARAM_TYPES,
  stage: KEY_STAGES,
  key_stage: KEY_STAGES,
  latest_sync_status: ['Success', 'Failure'],
  event: ['TRACKING_UPDATED', 'TRACKING_STOPPED'],
  origin: [1, 2, 3],
  // v1
  e: [...new Set(Object.values(V1_PACKAGE_STATUS_CODE))],
  is1: Object.keys(V1_CARRIER_TRACKING_STATUS).map(Number),
  is2: Object.keys(V1_CARRIER_TRACKING_STATUS).map(Number),
  sr: [1, 2, 3, 4],
};

const FORMATS: readonly [string, RegExp][] = [
  ['iso-utc', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/],
  ['iso-offset', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/],
  ['date-time', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/],
  ['date-minute', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['time', /^\d{2}:\d{2}:\d{2}$/],
  ['utc-offset', /^[+-]\d{2}:\d{2}$/],
  ['empty', /^$/],
];

/** `string:iso-utc`, `integer`, `null`... */
function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'string') return `string:${FORMATS.find(([, re]) => re.test(v))?.[0] ?? 'text'}`;
  return typeof v;
}

interface Shape {
  types: Set<string>;
  values: unknown[];
  keys: Map<string, Shape>;
  items: Shape | undefined;
}

function emptyShape(): Shape {
  return { types: new Set(), values: [], keys: new Map(), items: undefined };
}

function addTo(shape: Shape, v: unknown): void {
  shape.types.add(typeOf(v));
  if (Array.isArray(v)) {
    for (const item of v) addTo((shape.items ??= emptyShape()), item);
  } else if (typeof v === 'object' && v !== null) {
    for (const [k, child] of Object.entries(v)) {
      let s = shape.keys.get(k);
      if (!s) shape.keys.set(k, (s = emptyShape()));
      addTo(s, child);
    }
  } else {
    shape.values.push(v);
  }
}

function shapeOf(v: unknown): Shape {
  const s = emptyShape();
  addTo(s, v);
  return s;
}

const base = (t: string): string => t.split(':')[0] as string;

/** Whether a value of type `t` fits where the other side has `others` (non-null). */
function fits(t: string, others: ReadonlySet<string>): boolean {
  if (others.has(t)) return true;
  if (t === 'string:empty') return [...others].some((o) => base(o) === 'string');
  if ([...others].includes('string:empty') && base(t) === 'string' && others.size === 1) return true;
  // An integer is a number too.
  return t === 'integer' && others.has('number');
}

function compareShapes(rec: Shape, ours: Shape, path: string, key: string, out: Difference[]): void {
  const recTypes = new Set([...rec.types].filter((t) => t !== 'null'));
  const ourTypes = new Set([...ours.types].filter((t) => t !== 'null'));
  if (recTypes.size > 0 && ourTypes.size > 0) {
    for (const t of ourTypes) {
      if (fits(t, recTypes)) continue;
      const sameBase = [...recTypes].some((r) => base(r) === base(t));
      out.push({
        path,
        kind: sameBase ? 'format' : 'type',
        detail: `${t} where the recording has ${[...recTypes].join(' | ')}`,
      });
    }
  }
  const allowed = ENUMS[key];
  if (allowed) {
    for (const [side, values] of [
      ['recorded', rec.values],
      ['emulated', ours.values],
    ] as const) {
      for (const v of new Set(values)) {
        if (v !== null && !allowed.includes(v))
          out.push({ path, kind: 'enum', detail: `${side} value ${JSON.stringify(v)} outside the enum` });
      }
    }
  }
  if (rec.types.has('object') && ours.types.has('object')) {
    for (const [k, s] of rec.keys) {
      const o = ours.keys.get(k);
      if (!o)
        out.push({ path: join(path, k), kind: 'missing', detail: 'in the recording, not in the emulated answer' });
      else compareShapes(s, o, join(path, k), k, out);
    }
    for (const k of ours.keys.keys()) {
      if (!rec.keys.has(k))
        out.push({ path: join(path, k), kind: 'extra', detail: 'in the emulated answer, not in the recording' });
    }
  }
  if (rec.items && ours.items) compareShapes(rec.items, ours.items, `${path}[]`, key, out);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** How the emulated answer's shape differs from the recorded one's. */
export function shapeDifferences(recorded: unknown, emulated: unknown): Difference[] {
  const out: Difference[] = [];
  compareShapes(shapeOf(recorded), shapeOf(emulated), '', '', out);
  return out;
}

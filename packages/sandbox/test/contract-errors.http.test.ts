// Every error code each operation can raise, over real HTTP on 127.0.0.1: one row per (version,
// operation, code). A row asserts the HTTP status, the envelope `code`, the code of the item (or of
// `data.errors`) and, where the service's message has placeholders, that the message names the number,
// carrier code, value or field. The service's table of codes is the Errors section of the spec.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiVersion, Operation } from '@trk/service/vocabulary.js';
import type { RunningSandbox, SandboxOptions } from '../src/http/server.js';
import { sampleNumber } from '../src/world/index.js';
import {
  MIN,
  ROUTES,
  Receiver,
  V2_VERSIONS,
  VERSIONS,
  accepted,
  openSandbox,
  post,
  quotaUsed,
  fixtureJson,
  titled,
} from './contract-helpers.js';
import { call } from './http.js';

const receiver = new Receiver();
let shared: RunningSandbox;
const own: RunningSandbox[] = [];

beforeAll(async () => {
  await receiver.start();
  shared = await openSandbox({ webhookUrl: receiver.url });
});
afterAll(async () => {
  await Promise.all([shared, ...own].map((s) => s.close()));
  await receiver.close();
});

// ---- numbers: every row gets its own, so that rows sharing a sandbox never meet ----

let counter = 0;
/** A sample number of `carrier` nobody has used in this file (detected as that carrier). */
function fresh(carrier = 3011): string {
  counter += 1;
  return sampleNumber(carrier, 5000 + counter);
}
/** A number detection cannot place (the simulated service gives up on numbers starting with XX). */
function undetectable(): string {
  counter += 1;
  return `XX${String(counter).padStart(10, '0')}`;
}

interface Ctx {
  s: RunningSandbox;
  /** The row's own China Post number. */
  n: string;
}

// ---- setup steps ----

type Step = (c: Ctx) => Promise<void>;

/** Registered under these carriers (v2), first result not in yet. */
const registered =
  (...carriers: number[]): Step =>
  async (c) => {
    for (const carrier of carriers.length ? carriers : [3011]) {
      await accepted(c.s, 'v2', 'register', [{ number: c.n, carrier }]);
    }
  };
/** Registered and its first tracking run done (first runs come 3 to 10 s after registration). */
const tracked =
  (...carriers: number[]): Step =>
  async (c) => {
    await registered(...carriers)(c);
    await c.s.advance(MIN);
  };
const stopped: Step = async (c) => {
  await tracked()(c);
  await accepted(c.s, 'v2', 'stoptrack', [{ number: c.n }]);
};
const retrackedAndStoppedAgain: Step = async (c) => {
  await stopped(c);
  await accepted(c.s, 'v2', 'retrack', [{ number: c.n }]);
  await accepted(c.s, 'v2', 'stoptrack', [{ number: c.n }]);
};
const changedFiveTimes: Step = async (c) => {
  await tracked()(c);
  for (const carrier of [21051, 11031, 1151, 2151, 7041]) {
    await accepted(c.s, 'v2', 'changecarrier', [{ number: c.n, carrier_new: carrier }]);
    await c.s.advance(MIN);
  }
};
const then =
  (...steps: Step[]): Step =>
  async (c) => {
    for (const step of steps) await step(c);
  };
/** The account's console settings change after the setup (quota total, daily cap...). */
const settings =
  (patch: Parameters<RunningSandbox['setSettings']>[0]): Step =>
  async (c) => {
    c.s.setSettings(patch);
  };

// ---- the table ----

interface ErrorRow {
  v: ApiVersion;
  op: Operation;
  code: number;
  why: string;
  /** The row needs a sandbox of its own (it changes console settings): options of it. */
  own?: SandboxOptions;
  setup?: Step;
  body: (c: Ctx) => unknown;
  /** `item`: code 0, the item in `rejected`; `request`: refused as a whole in `data.errors`, code = the error. */
  scope?: 'item' | 'request';
  /** What the message must name (the spec's {0}/{1}). */
  names?: (c: Ctx) => (string | number)[];
  /** Quota units the request must charge (checked when given). */
  charged?: number;
}

const each = <V extends ApiVersion>(versions: readonly V[], make: (v: V) => Omit<ErrorRow, 'v'>): ErrorRow[] =>
  versions.map((v) => ({ v, ...make(v) }));

const cn = (c: Ctx) => [{ number: c.n }];
const cnIn = (carrier: number) => (c: Ctx) => [{ number: c.n, carrier }];
const itsNumber = (c: Ctx) => [c.n];

const REGISTER: ErrorRow[] = [
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010010,
    why: 'number missing',
    body: () => [{ carrier: 3011 }],
    names: () => ['number'],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010011,
    why: 'tag of 101 characters',
    body: (c) => [{ number: c.n, carrier: 3011, tag: 'x'.repeat(101) }],
    names: () => ['tag'],
  })),
  ...each(V2_VERSIONS, () => ({
    op: 'register',
    code: -18010011,
    why: 'email of 251 characters',
    body: (c) => [{ number: c.n, carrier: 3011, email: `${'e'.repeat(245)}@x.com` }],
    names: () => ['email'],
  })),
  {
    v: 'v2.1',
    op: 'register',
    code: -18010011,
    why: 'remark of 1001 characters',
    body: (c) => [{ number: c.n, carrier: 3011, remark: 'r'.repeat(1001) }],
    names: () => ['remark'],
  },
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010012,
    why: 'number of 4 characters',
    body: () => [{ number: 'AB12', carrier: 3011 }],
    names: () => ['AB12'],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010012,
    why: 'number of 51 characters',
    body: () => [{ number: `A${'1'.repeat(50)}`, carrier: 3011 }],
    names: () => [`A${'1'.repeat(50)}`],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010012,
    why: 'number with an underscore',
    body: () => [{ number: 'RR_12345678', carrier: 3011 }],
    names: () => ['RR_12345678'],
  })),
  // v1 numbers are letters and digits only; v2 allows hyphens.
  {
    v: 'v1',
    op: 'register',
    code: -18010012,
    why: 'number with a hyphen (v1 only)',
    body: () => [{ number: 'RR-123456789', carrier: 3011 }],
    names: () => ['RR-123456789'],
  },
  ...each(V2_VERSIONS, () => ({
    op: 'register',
    code: -18010015,
    why: 'unknown lang',
    body: (c) => [{ number: c.n, lang: 'pt' }],
    names: () => ['pt', 'lang'],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010016,
    why: 'final_carrier on a non-postal carrier',
    body: () => [{ number: fresh(190012), carrier: 190012, final_carrier: 21051 }],
  })),
  // Carriers of the simulated world that need an extra parameter (@trk/sandbox/world/carriers.ts).
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010018,
    why: 'GLS without country-postcode param',
    body: () => [{ number: fresh(100005), carrier: 100005 }],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010019,
    why: 'DPD UK without postcode param',
    body: () => [{ number: fresh(100010), carrier: 100010 }],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010020,
    why: 'SF Express without phone param',
    body: () => [{ number: fresh(100012), carrier: 100012 }],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18010022,
    why: 'Toll without date param',
    body: () => [{ number: fresh(100009), carrier: 100009 }],
  })),
  // A rejected item is never charged: quota is charged when a number is accepted (state table).
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18019901,
    why: 'already registered (not charged)',
    setup: registered(),
    body: cnIn(3011),
    names: itsNumber,
    charged: 0,
  })),
  // Only v2 and v2.1 can switch detection off (no carrier field, auto_detection false); v1 always detects.
  ...each(V2_VERSIONS, () => ({
    op: 'register',
    code: -18019903,
    why: 'no carrier and detection off',
    body: (c) => [{ number: c.n, auto_detection: false }],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18019903,
    why: 'undetectable number',
    body: () => [{ number: undetectable(), auto_detection: true }],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18019910,
    why: 'unknown carrier code, undetectable number',
    body: () => [{ number: undetectable(), carrier: 999999 }],
    names: () => [999999],
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18019907,
    why: 'daily cap reached',
    own: {},
    setup: then(registered(), settings({ maxTrackDaily: 1 })),
    body: () => [{ number: fresh(), carrier: 3011 }],
    charged: 0,
  })),
  ...each(VERSIONS, () => ({
    op: 'register',
    code: -18019908,
    why: 'quota exhausted',
    own: {},
    setup: then(registered(), settings({ quotaTotal: 1 })),
    body: () => [{ number: fresh(), carrier: 3011 }],
    charged: 0,
  })),
];

const CHANGECARRIER: ErrorRow[] = VERSIONS.flatMap((v): ErrorRow[] => [
  {
    v,
    op: 'changecarrier',
    code: -18019801,
    why: 'several carriers, no carrier_old',
    setup: tracked(3011, 21051),
    body: (c) => [{ number: c.n, carrier_new: 11031 }],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019802,
    why: 'unknown carrier_new',
    setup: tracked(),
    body: (c) => [{ number: c.n, carrier_new: 999999 }],
    names: () => [999999],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019803,
    why: 'carrier_new = current carrier',
    setup: tracked(),
    body: (c) => [{ number: c.n, carrier_new: 3011 }],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019804,
    why: 'neither carrier_new nor final_carrier_new',
    setup: tracked(),
    body: cn,
  },
  {
    v,
    op: 'changecarrier',
    code: -18019805,
    why: 'number not registered',
    body: (c) => [{ number: c.n, carrier_new: 21051 }],
    names: itsNumber,
  },
  {
    v,
    op: 'changecarrier',
    code: -18019805,
    why: 'carrier_old wrong',
    setup: tracked(),
    body: (c) => [{ number: c.n, carrier_old: 21051, carrier_new: 11031 }],
    names: (c) => [c.n, 21051],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019806,
    why: 'stopped',
    setup: stopped,
    body: (c) => [{ number: c.n, carrier_new: 21051 }],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019807,
    why: 'already changed 5 times',
    setup: changedFiveTimes,
    body: (c) => [{ number: c.n, carrier_new: 6051 }],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019808,
    why: 'first result still pending',
    setup: registered(),
    body: (c) => [{ number: c.n, carrier_new: 21051 }],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019809,
    why: 'already registered under carrier_new',
    setup: tracked(3011, 21051),
    body: (c) => [{ number: c.n, carrier_old: 3011, carrier_new: 21051 }],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019810,
    why: 'final_carrier_old matches several',
    setup: tracked(3011, 21051),
    body: (c) => [{ number: c.n, final_carrier_old: 0, carrier_new: 11031 }],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019811,
    why: 'carrier_new 0 and nothing else',
    setup: tracked(),
    body: (c) => [{ number: c.n, carrier_new: 0 }],
  },
  {
    v,
    op: 'changecarrier',
    code: -18010016,
    why: 'final carrier with a non-postal carrier_new',
    setup: tracked(),
    body: (c) => [{ number: c.n, carrier_new: 190012, final_carrier_new: 21051 }],
  },
  {
    v,
    op: 'changecarrier',
    code: -18019908,
    why: 'quota exhausted',
    own: {},
    setup: then(tracked(), settings({ quotaTotal: 1 })),
    body: (c) => [{ number: c.n, carrier_new: 21051 }],
    charged: 0,
  },
  {
    v,
    op: 'changecarrier',
    code: -18019907,
    why: 'daily cap reached',
    own: {},
    setup: then(tracked(), settings({ maxTrackDaily: 1 })),
    body: (c) => [{ number: c.n, carrier_new: 21051 }],
    charged: 0,
  },
]);

/** v1 changeinfo takes one object, v2 an array. */
const changeinfoBody = (v: ApiVersion, item: Record<string, unknown>): unknown => (v === 'v1' ? item : [item]);

const CHANGEINFO: ErrorRow[] = [
  ...each(VERSIONS, (v) => ({
    op: 'changeinfo',
    code: -18019902,
    why: 'not registered',
    body: (c) => changeinfoBody(v, { number: c.n, items: { tag: 'x' } }),
    names: itsNumber,
  })),
  ...each(VERSIONS, (v) => ({
    op: 'changeinfo',
    code: -18019910,
    why: 'unknown carrier code',
    setup: registered(),
    body: (c) => changeinfoBody(v, { number: c.n, carrier: 999999, items: { tag: 'x' } }),
    names: () => [999999],
  })),
  ...each(VERSIONS, (v) => ({
    op: 'changeinfo',
    code: -18010010,
    why: 'items missing',
    setup: registered(),
    body: (c) => changeinfoBody(v, { number: c.n }),
    names: () => ['items'],
  })),
  ...each(VERSIONS, (v) => ({
    op: 'changeinfo',
    code: -18010011,
    why: 'tag of 101 characters',
    setup: registered(),
    body: (c) => changeinfoBody(v, { number: c.n, items: { tag: 'x'.repeat(101) } }),
    names: () => ['tag'],
  })),
  ...each(V2_VERSIONS, () => ({
    op: 'changeinfo',
    code: -18010015,
    why: 'unknown lang',
    setup: registered(),
    body: (c) => [{ number: c.n, items: { lang: 'pt' } }],
    names: () => ['pt', 'lang'],
  })),
];

const LIFECYCLE: ErrorRow[] = VERSIONS.flatMap((v): ErrorRow[] => [
  { v, op: 'stoptrack', code: -18019906, why: 'already stopped', setup: stopped, body: cn },
  { v, op: 'stoptrack', code: -18019902, why: 'not registered', body: cn, names: itsNumber },
  {
    v,
    op: 'stoptrack',
    code: -18019910,
    why: 'unknown carrier code',
    setup: registered(),
    body: cnIn(999999),
    names: () => [999999],
  },
  { v, op: 'retrack', code: -18019904, why: 'still tracking', setup: tracked(), body: cn },
  { v, op: 'retrack', code: -18019905, why: 're-tracked once already', setup: retrackedAndStoppedAgain, body: cn },
  { v, op: 'retrack', code: -18019902, why: 'not registered', body: cn, names: itsNumber },
  {
    v,
    op: 'retrack',
    code: -18019910,
    why: 'unknown carrier code',
    setup: stopped,
    body: cnIn(999999),
    names: () => [999999],
  },
  { v, op: 'deletetrack', code: -18019902, why: 'not registered', body: cnIn(3011), names: itsNumber },
  {
    v,
    op: 'deletetrack',
    code: -18019910,
    why: 'unknown carrier code',
    setup: registered(),
    body: cnIn(999999),
    names: () => [999999],
  },
  { v, op: 'push', code: -18019909, why: 'before the first result', setup: registered(), body: cn },
  { v, op: 'push', code: -18010204, why: 'no webhook URL', own: { webhookUrl: null }, setup: tracked(), body: cn },
  { v, op: 'push', code: -18019902, why: 'not registered', body: cn, names: itsNumber },
  {
    v,
    op: 'push',
    code: -18019910,
    why: 'unknown carrier code',
    setup: tracked(),
    body: cnIn(999999),
    names: () => [999999],
  },
  {
    v,
    op: 'gettrackinfo',
    code: -18019910,
    why: 'unknown carrier code',
    setup: registered(),
    body: cnIn(999999),
    names: () => [999999],
  },
  { v, op: 'gettrackinfo', code: -18019902, why: 'not registered', body: cn, names: itsNumber },
]).concat([
  // v1 documents carrier as required for deleteTrack.
  {
    v: 'v1',
    op: 'deletetrack',
    code: -18010010,
    why: 'carrier missing (v1)',
    setup: registered(),
    body: cn,
    names: () => ['carrier'],
  },
]);

const LIST: ErrorRow[] = [
  ...each(V2_VERSIONS, () => ({
    op: 'gettracklist',
    code: -18010015,
    why: 'package_status not a status',
    scope: 'request',
    body: () => ({ package_status: 'Lost' }),
    names: () => ['Lost', 'package_status'],
  })),
  ...each(V2_VERSIONS, () => ({
    op: 'gettracklist',
    code: -18010015,
    why: 'tracking_status not a state',
    scope: 'request',
    body: () => ({ tracking_status: 'Paused' }),
    names: () => ['Paused', 'tracking_status'],
  })),
  ...each(V2_VERSIONS, () => ({
    op: 'gettracklist',
    code: -18010015,
    why: 'order_by not an order',
    scope: 'request',
    body: () => ({ order_by: 'Newest' }),
    names: () => ['Newest', 'order_by'],
  })),
  ...each(V2_VERSIONS, () => ({
    op: 'gettracklist',
    code: -18010015,
    why: 'register_time_from not a time',
    scope: 'request',
    body: () => ({ register_time_from: 'yesterday' }),
    names: () => ['yesterday', 'register_time_from'],
  })),
  ...each(VERSIONS, () => ({
    op: 'gettracklist',
    code: -18010015,
    why: 'page_no below 0',
    scope: 'request',
    body: () => ({ page_no: -1 }),
    names: () => ['page_no'],
  })),
  {
    v: 'v1',
    op: 'gettracklist',
    code: -18010015,
    why: 'tracking_state 5',
    scope: 'request',
    body: () => ({ tracking_state: 5 }),
    names: () => ['5', 'tracking_state'],
  },
  {
    v: 'v1',
    op: 'gettracklist',
    code: -18010015,
    why: 'push_state 7',
    scope: 'request',
    body: () => ({ push_state: 7 }),
    names: () => ['7', 'push_state'],
  },
  // "number: up to 200 numbers"
  ...each(VERSIONS, () => ({
    op: 'gettracklist',
    code: -18010014,
    why: '201 numbers',
    scope: 'request',
    body: () => ({ number: Array.from({ length: 201 }, (_, i) => sampleNumber(3011, i)).join(',') }),
  })),
];

const realtimeOf = (carrier: number) => () => [{ number: fresh(carrier), carrier }];

const REALTIME: ErrorRow[] = V2_VERSIONS.flatMap((v): ErrorRow[] => [
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18010012,
    why: 'number of 4 characters',
    body: () => [{ number: 'AB12', carrier: 3011 }],
    names: () => ['AB12'],
  },
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18010015,
    why: 'cacheLevel 2',
    body: (c) => [{ number: c.n, cacheLevel: 2 }],
    names: () => ['2', 'cacheLevel'],
  },
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18010015,
    why: 'cacheLevel "Fast"',
    body: (c) => [{ number: c.n, cacheLevel: 'Fast' }],
    names: () => ['Fast', 'cacheLevel'],
  },
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18010016,
    why: 'final_carrier on a non-postal carrier',
    body: () => [{ number: fresh(190012), carrier: 190012, final_carrier: 21051 }],
  },
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18019903,
    why: 'undetectable number',
    body: () => [{ number: undetectable() }],
  },
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18019910,
    why: 'unknown carrier code, undetectable number',
    body: () => [{ number: undetectable(), carrier: 999999 }],
    names: () => [999999],
  },
  // "These carrier codes are not supported: 21051, 11031, 1151, 101066, 7047, 100766".
  ...[21051, 11031, 1151, 101066, 7047, 100766].map(
    (carrier): ErrorRow => ({
      v,
      op: 'getRealTimeTrackInfo',
      code: -18019818,
      why: `carrier ${carrier} not served`,
      body: realtimeOf(carrier),
      charged: 0,
    }),
  ),
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18019912,
    why: 'real time not allowed for the account',
    own: { realtimeAllowed: false },
    scope: 'request',
    body: cn,
    charged: 0,
  },
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18019908,
    why: 'quota exhausted',
    own: {},
    setup: then(registered(), settings({ quotaTotal: 1 })),
    body: () => [{ number: fresh(), carrier: 3011 }],
    charged: 0,
  },
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18019907,
    why: 'daily cap reached (cacheLevel 1: 10 units)',
    own: {},
    setup: settings({ maxTrackDaily: 9 }),
    body: (c) => [{ number: c.n, cacheLevel: 1 }],
    charged: 0,
  },
  // One number per request.
  {
    v,
    op: 'getRealTimeTrackInfo',
    code: -18010014,
    why: '2 items',
    scope: 'request',
    body: () => [{ number: fresh() }, { number: fresh() }],
  },
  { v, op: 'getRealTimeTrackInfo', code: -18010013, why: 'no item', scope: 'request', body: () => [] },
]);

const ERROR_ROWS: ErrorRow[] = [...REGISTER, ...CHANGECARRIER, ...CHANGEINFO, ...LIFECYCLE, ...LIST, ...REALTIME];

describe('error codes of each operation (HTTP 200)', () => {
  it.each(titled(ERROR_ROWS, (r) => `${r.v} ${r.op} ${r.code}: ${r.why}`))('%s', async (_title, row) => {
    let s = shared;
    if (row.own) {
      s = await openSandbox({ webhookUrl: receiver.url, ...row.own });
      own.push(s);
    }
    const c: Ctx = { s, n: fresh() };
    await row.setup?.(c);
    const before = row.charged === undefined ? 0 : await quotaUsed(s);

    const a = await post(s, row.v, row.op, row.body(c));
    expect(a.status).toBe(200);
    let error: { code: number; message: string };
    if (row.scope === 'request') {
      // Refused as a whole: nothing processed, the code in the envelope and in data.errors.
      expect(a.json.code).toBe(row.code);
      expect(a.json.data.accepted).toBeUndefined();
      expect(a.json.data.errors).toHaveLength(1);
      error = a.json.data.errors[0];
    } else {
      // "A request can succeed as a whole (HTTP 200, code 0) while individual items are in rejected."
      expect(a.json.code, a.text).toBe(0);
      expect(a.json.data.accepted).toEqual([]);
      expect(a.json.data.rejected).toHaveLength(1);
      const rejected = a.json.data.rejected[0];
      // Rejected items: v1 {number, error}; v2 and later add `tag` (and the emulator `carrier`).
      if (row.v === 'v1') expect(Object.keys(rejected).sort()).toEqual(['error', 'number']);
      else expect(rejected).toHaveProperty('tag');
      error = rejected.error;
    }
    expect(error.code).toBe(row.code);
    expect(typeof error.message).toBe('string');
    expect(error.message).not.toBe('');
    for (const named of row.names?.(c) ?? []) expect(error.message).toContain(String(named));

    if (row.charged !== undefined) expect((await quotaUsed(s)) - before).toBe(row.charged);
  });
});

describe('malformed requests: -18010013 in data.errors, for every operation of every version', () => {
  /** A body of the wrong shape for each operation: an object where an array is expected and vice versa. */
  const wrongShape = (version: ApiVersion, op: Operation): string => {
    if (op === 'gettracklist') return '[]';
    if (op === 'getquota') return '[1]';
    // v1 changeinfo takes one object (or one object in an array): two are the wrong shape.
    if (op === 'changeinfo' && version === 'v1')
      return '[{"number":"RR123456789CN","items":{"tag":"x"}},{"number":"RR123456789CN","items":{"tag":"y"}}]';
    return '{"number":"RR123456789CN"}';
  };
  const arrayOp = (version: ApiVersion, op: Operation) =>
    !(op === 'gettracklist' || op === 'getquota' || (op === 'changeinfo' && version === 'v1'));
  const fine = (op: Operation) => (op === 'gettracklist' ? '{}' : '[]');
  // `transport`: refused before the account sees the request.
  const rows = ROUTES.flatMap(({ version, op }) => [
    {
      version,
      op,
      why: 'body not JSON',
      body: '[{"number": "RR1234',
      contentType: 'application/json',
      transport: true,
    },
    {
      version,
      op,
      why: 'body of the wrong shape',
      body: wrongShape(version, op),
      contentType: 'application/json',
      transport: false,
    },
    {
      version,
      op,
      why: 'item not an object',
      body: arrayOp(version, op) ? '["RR123456789CN"]' : '"x"',
      contentType: 'application/json',
      transport: false,
    },
    { version, op, why: 'Content-Type text/plain', body: fine(op), contentType: 'text/plain', transport: true },
    { version, op, why: 'no Content-Type', body: fine(op), contentType: null, transport: true },
  ]);

  it.each(titled(rows, (r) => `${r.version} ${r.op}: ${r.why}`))(
    '%s',
    async (_title, { version, op, body, contentType, transport }) => {
      const handled = () => shared.state().requests.byOperation[`${version}/${op}`] ?? 0;
      const before = handled();
      const a = await post(shared, version, op, body, { contentType });
      expect(a.status).toBe(200);
      expect(a.json).toEqual({ code: -18010013, data: { errors: [{ code: -18010013, message: expect.any(String) }] } });
      expect(handled()).toBe(transport ? before : before + 1);
    },
  );
});

describe('too many items: -18010014 (40 per request; real time 1)', () => {
  const rows = ROUTES.filter(
    ({ version, op }) =>
      !['getquota', 'gettracklist', 'getRealTimeTrackInfo'].includes(op) && !(op === 'changeinfo' && version === 'v1'),
  );

  it.each(titled(rows, (r) => `${r.version} ${r.op}: 41 items`))('%s', async (_title, { version, op }) => {
    const item = (i: number) => {
      const number = sampleNumber(3011, 90_000 + i);
      return op === 'changeinfo'
        ? { number, items: { tag: 'x' } }
        : op === 'changecarrier'
          ? { number, carrier_new: 21051 }
          : { number, carrier: 3011 };
    };
    const before = await quotaUsed(shared);
    const a = await post(
      shared,
      version,
      op,
      Array.from({ length: 41 }, (_, i) => item(i)),
    );
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ code: -18010014, data: { errors: [{ code: -18010014, message: expect.any(String) }] } });
    expect(await quotaUsed(shared)).toBe(before);
    // 40 is still one request's worth.
    const forty = await post(
      shared,
      version,
      op,
      Array.from({ length: 40 }, (_, i) => item(i)),
    );
    expect(forty.json.code).toBe(0);
  });
});

describe('authentication: HTTP 401 on every operation of every version', () => {
  const liveFixture = fixtureJson('real-v1/error_response.json');
  const sandboxes = new Map<number, RunningSandbox>();
  beforeAll(async () => {
    sandboxes.set(-18010002, await openSandbox());
    const ip = await openSandbox();
    // Only an address that is not this machine's loopback.
    ip.setSettings({ ipAllowList: ['10.0.0.1', '192.168.0.0/16'] });
    sandboxes.set(-18010001, ip);
    const disabled = await openSandbox();
    disabled.setSettings({ disabled: true });
    sandboxes.set(-18010004, disabled);
  });
  afterAll(async () => {
    await Promise.all([...sandboxes.values()].map((s) => s.close()));
  });

  const rows = [-18010002, -18010001, -18010004].flatMap((code) =>
    ROUTES.map(({ version, op }) => ({
      code,
      version,
      op,
      why: { [-18010002]: 'wrong key', [-18010001]: 'caller not in the IP whitelist', [-18010004]: 'account disabled' }[
        code
      ],
    })),
  );

  it.each(titled(rows, (r) => `${r.version} ${r.op} ${r.code}: ${r.why}`))(
    '%s',
    async (_title, { code, version, op }) => {
      const s = sandboxes.get(code) as RunningSandbox;
      const key = code === -18010002 ? 'not-the-key' : s.key;
      const a = await post(s, version, op, op === 'gettracklist' ? {} : [{ number: 'RR123456789CN', carrier: 3011 }], {
        key,
      });
      expect(a.status).toBe(401);
      if (code === -18010002) {
        // The live service's answer, byte for byte in meaning (real-v1/error_response.json).
        expect(a.json).toEqual(liveFixture);
      } else {
        expect(a.json).toEqual({ code: 401, data: { errors: [{ code, message: expect.any(String) }] } });
      }
      // Not processed.
      expect(s.state().requests.byOperation).toEqual({});
    },
  );

  it('a missing svctoken header is a wrong key too', async () => {
    const s = sandboxes.get(-18010002) as RunningSandbox;
    const a = await call(s.url, '/track/v2/getquota', { body: '[]' });
    expect(a.status).toBe(401);
    expect(a.json).toEqual(liveFixture);
  });
});

describe('unknown paths: HTTP 404', () => {
  const rows: { version: string; path: string; why: string }[] = [
    { version: 'v1', path: '/track/v1/getquota', why: 'v1 has no getquota' },
    { version: 'v1', path: '/track/v1/getRealTimeTrackInfo', why: 'v1 has no real time' },
    { version: 'v1', path: '/track/v1/retrack', why: 'v1 spells it Retrack' },
    { version: 'v1', path: '/track/v1/deletetrack', why: 'v1 spells it deleteTrack' },
    { version: 'v1', path: '/track/v1/Register', why: 'wrong casing' },
    { version: 'v1', path: '/track/v1/nothing', why: 'no such operation' },
    ...V2_VERSIONS.flatMap((version) => [
      { version, path: `/track/${version}/Retrack`, why: 'v1 casing' },
      { version, path: `/track/${version}/deleteTrack`, why: 'v1 casing' },
      { version, path: `/track/${version}/getrealtimetrackinfo`, why: 'wrong casing' },
      { version, path: `/track/${version}/GetQuota`, why: 'wrong casing' },
      { version, path: `/track/${version}/register/`, why: 'trailing slash' },
      { version, path: `/track/${version}/nothing`, why: 'no such operation' },
    ]),
    { version: 'v3', path: '/track/v3/register', why: 'no such version' },
    { version: '-', path: '/track/register', why: 'no version' },
  ];

  it.each(titled(rows, (r) => `${r.path}: ${r.why}`))('%s', async (_title, { path }) => {
    for (const key of [shared.key, undefined]) {
      const a = await call(shared.url, path, { key, body: '[]' });
      expect(a.status).toBe(404);
      // No service code exists for a wrong URL: the HTTP status stands in, as `code` does for 401.
      expect(a.json).toEqual({ code: 404, data: { errors: [{ code: 404, message: expect.any(String) }] } });
    }
  });
});

describe('rate limit: HTTP 429 beyond 3 requests per second', () => {
  it.each(VERSIONS)('%s: 4 requests in the same second, the 4th refused', async (version) => {
    const s = await openSandbox({ rateLimit: 3 });
    own.push(s);
    const answers = await Promise.all(Array.from({ length: 4 }, () => post(s, version, 'gettracklist', {})));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.json).toEqual({ code: 429, data: { errors: [{ code: 429, message: expect.any(String) }] } });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The refused request never reached the account.
    expect(s.state().requests.byOperation).toEqual({ [`${version}/gettracklist`]: 3 });
  });
});

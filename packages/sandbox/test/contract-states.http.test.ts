// The spec's state table ("Tracking state of a registered number"), row by row, over real HTTP on
// 127.0.0.1, in each version: v2 and v2.1 read the state from gettracklist's tracking_status,
// stop_track_reason and is_retracked, v1 from ts, sr (1 expiry, 2 request, 4 invalid carrier) and ir.
// Every row runs in a fresh emulator whose clock only moves by `advance`, with a webhook receiver on
// 127.0.0.1 to see the notifications a transition sends.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { RunningSandbox } from '../src/http/server.js';
import { findNumber, planShipment, sampleNumber, scenarioOf } from '../src/world/index.js';
import {
  DAY,
  MIN,
  Receiver,
  START,
  type TrackState,
  VERSIONS,
  accepted,
  listed,
  openSandbox,
  post,
  quotaUsed,
  stateOf,
  titled,
} from './contract-helpers.js';
import type { Answer } from './http.js';

// Numbers chosen by the outcome the simulated world gives them (China Post, 3011).
const ANY = sampleNumber(3011, 1);
/** Never gets an event: 30 days counted from the tracking start. */
const NO_EVENT = findNumber(3011, { scenario: 'not_found' }) as string;
/** Goes quiet mid-route: 30 days counted from its last event. */
const GOES_QUIET = findNumber(3011, { scenario: 'stalled' }) as string;
/** Delivered: 15 days counted from the delivery. */
const DELIVERED = findNumber(3011, { scenario: 'delivered' }) as string;
/** The carrier answers "invalid number". */
const INVALID = findNumber(3011, { scenario: 'invalid_code' }) as string;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface T {
  s: RunningSandbox;
  rx: Receiver;
  v: ApiVersion;
  n: string;
}

/** Move simulated time to `ms` (the account processes everything due on the way). */
async function advanceTo(t: T, ms: number): Promise<void> {
  expect(ms).toBeGreaterThanOrEqual(t.s.clock.now());
  await t.s.advance(ms - t.s.clock.now());
}

/** When the parcel's story ends (its last event), as the world plans it for a registration at START. */
const lastEventOf = (t: T): number => planShipment(t.n, 3011, START).events.at(-1)!.atMs;

const register = (t: T) => accepted(t.s, t.v, 'register', [{ number: t.n, carrier: 3011 }]);
const firstResult = (t: T) => t.s.advance(MIN); // first runs come 3 to 10 s after registration
const stop = (t: T) => accepted(t.s, t.v, 'stoptrack', [{ number: t.n, carrier: 3011 }]);
const retrack = (t: T) => accepted(t.s, t.v, 'retrack', [{ number: t.n, carrier: 3011 }]);

/** The one item's error code of a request whose only item was rejected. */
function rejectedCode(a: Answer): number {
  expect(a.status).toBe(200);
  expect(a.json.code).toBe(0);
  expect(a.json.data.accepted).toEqual([]);
  expect(a.json.data.rejected).toHaveLength(1);
  return a.json.data.rejected[0].error.code;
}

/** The v2.1 gettracklist record (times and the extra fields), whatever the row's version. */
async function record(t: T): Promise<any> {
  const recs = await listed(t.s, 'v2.1', t.n);
  expect(recs).toHaveLength(1);
  return recs[0];
}

const TRACKING: TrackState = { tracking_status: 'Tracking', stop_track_reason: null, is_retracked: false };
const stoppedBy = (reason: TrackState['stop_track_reason'], is_retracked = false): TrackState => ({
  tracking_status: 'Stopped',
  stop_track_reason: reason,
  is_retracked,
});

/**
 * Expiry at `deadline`: one minute before it the number is still tracked, one minute after it is Stopped
 * (Expired) with stop_track_time = the deadline, TRACKING_STOPPED has been delivered, and nothing follows it.
 */
async function expiresAt(t: T, deadline: number): Promise<void> {
  await advanceTo(t, deadline - MIN);
  expect(await stateOf(t.s, t.v, t.n)).toEqual(TRACKING);
  expect(t.rx.eventsFor(t.n)).not.toContain('TRACKING_STOPPED');
  await advanceTo(t, deadline + MIN);
  expect(await stateOf(t.s, t.v, t.n)).toEqual(stoppedBy('Expired'));
  expect((await record(t)).stop_track_time).toBe(iso(deadline));
  const events = t.rx.eventsFor(t.n);
  expect(events[0]).toBe('TRACKING_UPDATED'); // the first result
  expect(events.at(-1)).toBe('TRACKING_STOPPED');
  const stopped = t.rx.received.filter((r) => r.number === t.n && r.event === 'TRACKING_STOPPED');
  expect(stopped).toHaveLength(1);
  // v2 and v2.1: data {number, carrier, param, tag}; v1: {number, carrier, tag} beside `sign`.
  const data = stopped[0]?.body.data;
  expect(data).toMatchObject({ number: t.n, carrier: 3011 });
  expect(Object.keys(data).sort()).toEqual(
    t.v === 'v1' ? ['carrier', 'number', 'tag'] : ['carrier', 'number', 'param', 'tag'],
  );
  if (t.v === 'v1') expect(typeof stopped[0]?.body.sign).toBe('string');
  // "No further TRACKING_UPDATED is sent after TRACKING_STOPPED."
  await t.s.advance(20 * DAY);
  expect(t.rx.eventsFor(t.n)).toEqual(events);
}

interface StateRow {
  /** The spec's columns. */
  from: string;
  trigger: string;
  condition: string;
  next: string;
  effects: string;
  /** The row's number (default: any China Post number). */
  number?: string;
  /** Drives the row from a fresh account, asserting the transition and its effects. */
  run: (t: T) => Promise<void>;
  /** The state gettracklist shows at the end; undefined = the number is no longer in the account. */
  end: TrackState | undefined;
}

const STATE_TABLE: StateRow[] = [
  {
    from: '(none)',
    trigger: 'register',
    condition: 'number accepted',
    next: 'Tracking',
    effects: 'quota charged; first result within seconds to minutes; TRACKING_UPDATED',
    run: async (t) => {
      const before = await quotaUsed(t.s);
      expect(await register(t)).toEqual([expect.objectContaining({ number: t.n, carrier: 3011 })]);
      expect(await quotaUsed(t.s)).toBe(before + 1);
      expect(t.rx.eventsFor(t.n)).toEqual([]);
      await firstResult(t);
      expect((await record(t)).track_time).not.toBeNull();
      expect(t.rx.eventsFor(t.n)).toEqual(['TRACKING_UPDATED']);
    },
    end: TRACKING,
  },
  {
    from: 'Tracking',
    trigger: 'stoptrack',
    condition: 'number is being tracked',
    next: 'Stopped (ByRequest)',
    effects: 'stop_track_time = now; no TRACKING_STOPPED (that is for expiry)',
    run: async (t) => {
      await register(t);
      await firstResult(t);
      expect(await stop(t)).toEqual([{ number: t.n, carrier: 3011 }]);
      expect((await record(t)).stop_track_time).toBe(iso(START + MIN));
      await t.s.advance(DAY);
      expect(t.rx.eventsFor(t.n)).toEqual(['TRACKING_UPDATED']);
    },
    end: stoppedBy('ByRequest'),
  },
  {
    from: 'Stopped',
    trigger: 'stoptrack',
    condition: 'not being tracked',
    next: 'Stopped (unchanged)',
    effects: '-18019906',
    run: async (t) => {
      await register(t);
      await stop(t);
      expect(rejectedCode(await post(t.s, t.v, 'stoptrack', [{ number: t.n, carrier: 3011 }]))).toBe(-18019906);
    },
    end: stoppedBy('ByRequest'),
  },
  {
    from: 'Tracking',
    trigger: 'expiry rules',
    condition: '30 days without an event, counted from the tracking start',
    next: 'Stopped (Expired)',
    effects: 'TRACKING_STOPPED',
    number: NO_EVENT,
    run: async (t) => {
      await register(t);
      await firstResult(t);
      expect((await record(t)).latest_event_time).toBeNull();
      await expiresAt(t, START + 30 * DAY);
    },
    end: stoppedBy('Expired'),
  },
  {
    from: 'Tracking',
    trigger: 'expiry rules',
    condition: '30 days without an event update after the last event',
    next: 'Stopped (Expired)',
    effects: 'TRACKING_STOPPED',
    number: GOES_QUIET,
    run: async (t) => {
      await register(t);
      await advanceTo(t, lastEventOf(t) + DAY);
      const last = Date.parse((await record(t)).latest_event_time);
      expect(last).toBeGreaterThan(START); // so that the last event, not the start, is what counts
      await expiresAt(t, last + 30 * DAY);
    },
    end: stoppedBy('Expired'),
  },
  {
    from: 'Tracking',
    trigger: 'expiry rules',
    condition: '15 days without an update after delivery',
    next: 'Stopped (Expired)',
    effects: 'TRACKING_STOPPED',
    number: DELIVERED,
    run: async (t) => {
      await register(t);
      await advanceTo(t, lastEventOf(t) + DAY);
      const rec = await record(t);
      expect(rec.package_status).toBe('Delivered');
      const delivered = Date.parse(rec.delievery_time);
      expect(delivered).toBeGreaterThan(START);
      await expiresAt(t, delivered + 15 * DAY);
    },
    end: stoppedBy('Expired'),
  },
  {
    from: 'Tracking',
    trigger: 'carrier found invalid',
    condition: 'the carrier answers "invalid number"',
    next: 'Stopped (InvalidCarrier)',
    effects: 'no TRACKING_STOPPED (only expiry sends it)',
    number: INVALID,
    run: async (t) => {
      await register(t);
      await advanceTo(t, START + 10 * DAY);
      expect((await record(t)).package_status).toBe('NotFound');
      expect(t.rx.eventsFor(t.n)).not.toContain('TRACKING_STOPPED');
    },
    end: stoppedBy('InvalidCarrier'),
  },
  {
    from: 'Stopped (ByRequest)',
    trigger: 'retrack',
    condition: 'stopped, never re-tracked',
    next: 'Tracking',
    effects: 'is_retracked true; tracked again from now',
    run: async (t) => {
      await register(t);
      await firstResult(t);
      await stop(t);
      await t.s.advance(DAY);
      const retrackedAt = t.s.clock.now();
      expect(await retrack(t)).toEqual([{ number: t.n, carrier: 3011 }]);
      expect((await record(t)).stop_track_time).toBeNull();
      await t.s.advance(MIN);
      expect(Date.parse((await record(t)).track_time)).toBeGreaterThan(retrackedAt);
    },
    end: { tracking_status: 'Tracking', stop_track_reason: null, is_retracked: true },
  },
  {
    from: 'Stopped (Expired)',
    trigger: 'retrack',
    condition: 'stopped, never re-tracked',
    next: 'Tracking',
    effects: 'is_retracked true; expiry counted again from the retrack',
    number: NO_EVENT,
    run: async (t) => {
      await register(t);
      await advanceTo(t, START + 31 * DAY);
      expect(await stateOf(t.s, t.v, t.n)).toEqual(stoppedBy('Expired'));
      const retrackedAt = t.s.clock.now();
      await retrack(t);
      await advanceTo(t, retrackedAt + 30 * DAY - MIN);
    },
    end: { tracking_status: 'Tracking', stop_track_reason: null, is_retracked: true },
  },
  {
    from: 'Stopped',
    trigger: 'retrack',
    condition: 're-tracked before',
    next: 'Stopped (unchanged)',
    effects: '-18019905 (each number once only)',
    run: async (t) => {
      await register(t);
      await stop(t);
      await retrack(t);
      await stop(t);
      expect(rejectedCode(await post(t.s, t.v, 'retrack', [{ number: t.n, carrier: 3011 }]))).toBe(-18019905);
    },
    end: stoppedBy('ByRequest', true),
  },
  {
    from: 'Tracking',
    trigger: 'retrack',
    condition: 'not stopped',
    next: 'Tracking (unchanged)',
    effects: '-18019904',
    run: async (t) => {
      await register(t);
      await firstResult(t);
      expect(rejectedCode(await post(t.s, t.v, 'retrack', [{ number: t.n, carrier: 3011 }]))).toBe(-18019904);
    },
    end: TRACKING,
  },
  {
    from: 'Tracking',
    trigger: 'deletetrack',
    condition: 'number registered',
    next: 'deleted',
    effects: 'irreversible; registering again charges quota again',
    run: async (t) => {
      await register(t);
      await firstResult(t);
      expect(await accepted(t.s, t.v, 'deletetrack', [{ number: t.n, carrier: 3011 }])).toEqual([
        { number: t.n, carrier: 3011 },
      ]);
      await registeringAgainChargesAgain(t);
    },
    end: TRACKING,
  },
  {
    from: 'Stopped',
    trigger: 'deletetrack',
    condition: 'number registered',
    next: 'deleted',
    effects: 'irreversible; registering again charges quota again (a new record: not re-tracked)',
    run: async (t) => {
      await register(t);
      await stop(t);
      await retrack(t);
      await stop(t);
      expect(await stateOf(t.s, t.v, t.n)).toEqual(stoppedBy('ByRequest', true));
      await accepted(t.s, t.v, 'deletetrack', [{ number: t.n, carrier: 3011 }]);
      await registeringAgainChargesAgain(t);
    },
    end: TRACKING,
  },
  {
    from: '(none)',
    trigger: 'deletetrack',
    condition: 'number not registered',
    next: '(none)',
    effects: '-18019902',
    run: async (t) => {
      expect(rejectedCode(await post(t.s, t.v, 'deletetrack', [{ number: t.n, carrier: 3011 }]))).toBe(-18019902);
    },
    end: undefined,
  },
  {
    from: 'Stopped (ByRequest)',
    trigger: 'retention period ends',
    condition: '90 days in the account',
    next: 'deleted',
    effects: '',
    run: async (t) => {
      await register(t);
      await firstResult(t);
      await stop(t);
      const stoppedAt = t.s.clock.now();
      await advanceTo(t, stoppedAt + 90 * DAY - MIN);
      expect(await stateOf(t.s, t.v, t.n)).toEqual(stoppedBy('ByRequest'));
      await advanceTo(t, stoppedAt + 90 * DAY + MIN);
      expect(rejectedCode(await post(t.s, t.v, 'gettrackinfo', [{ number: t.n }]))).toBe(-18019902);
    },
    end: undefined,
  },
  {
    from: 'Stopped (Expired)',
    trigger: 'retention period ends',
    condition: '90 days in the account',
    next: 'deleted',
    effects: '',
    number: NO_EVENT,
    run: async (t) => {
      await register(t);
      const stoppedAt = START + 30 * DAY;
      await advanceTo(t, stoppedAt + 90 * DAY - MIN);
      expect(await stateOf(t.s, t.v, t.n)).toEqual(stoppedBy('Expired'));
      await advanceTo(t, stoppedAt + 90 * DAY + MIN);
      expect((await post(t.s, t.v, 'gettracklist', {})).json.data.accepted).toEqual([]);
    },
    end: undefined,
  },
  {
    from: 'Tracking',
    trigger: 'changecarrier',
    condition: 'first result in',
    next: 'Tracking (unchanged)',
    effects: 'carrier changed, carrier_change_count 1, one unit charged',
    run: async (t) => {
      await register(t);
      await firstResult(t);
      const before = await quotaUsed(t.s);
      expect(await accepted(t.s, t.v, 'changecarrier', [{ number: t.n, carrier_new: 21051 }])).toEqual([
        { number: t.n, carrier: 21051 },
      ]);
      expect(await quotaUsed(t.s)).toBe(before + 1);
      expect(await record(t)).toMatchObject({ carrier: 21051, carrier_change_count: 1 });
    },
    end: TRACKING,
  },
  {
    from: 'Stopped',
    trigger: 'changecarrier',
    condition: 'stopped',
    next: 'Stopped (unchanged)',
    effects: '-18019806',
    run: async (t) => {
      await register(t);
      await firstResult(t);
      await stop(t);
      expect(rejectedCode(await post(t.s, t.v, 'changecarrier', [{ number: t.n, carrier_new: 21051 }]))).toBe(
        -18019806,
      );
      expect(await record(t)).toMatchObject({ carrier: 3011, carrier_change_count: 0 });
    },
    end: stoppedBy('ByRequest'),
  },
  {
    from: 'Tracking',
    trigger: 'changecarrier',
    condition: '5 changes made',
    next: 'Tracking (unchanged)',
    effects: '-18019807',
    run: async (t) => {
      await register(t);
      for (const carrier of [21051, 11031, 1151, 2151, 7041]) {
        await firstResult(t);
        await accepted(t.s, t.v, 'changecarrier', [{ number: t.n, carrier_new: carrier }]);
      }
      await firstResult(t);
      expect(rejectedCode(await post(t.s, t.v, 'changecarrier', [{ number: t.n, carrier_new: 6051 }]))).toBe(-18019807);
      expect(await record(t)).toMatchObject({ carrier: 7041, carrier_change_count: 5 });
    },
    end: TRACKING,
  },
  {
    from: 'Tracking',
    trigger: 'changecarrier',
    condition: 'result of the registration or last change pending',
    next: 'Tracking (unchanged)',
    effects: '-18019808',
    run: async (t) => {
      await register(t);
      expect(rejectedCode(await post(t.s, t.v, 'changecarrier', [{ number: t.n, carrier_new: 21051 }]))).toBe(
        -18019808,
      );
      await firstResult(t);
      await accepted(t.s, t.v, 'changecarrier', [{ number: t.n, carrier_new: 21051 }]);
      expect(rejectedCode(await post(t.s, t.v, 'changecarrier', [{ number: t.n, carrier_new: 11031 }]))).toBe(
        -18019808,
      );
      expect(await record(t)).toMatchObject({ carrier: 21051, carrier_change_count: 1 });
    },
    end: TRACKING,
  },
];

/** After a deletion: the account no longer lists the number; registering it again is charged again. */
async function registeringAgainChargesAgain(t: T): Promise<void> {
  expect(await stateOf(t.s, t.v, t.n)).toBeUndefined();
  expect((await post(t.s, t.v, 'gettracklist', {})).json.data.accepted).toEqual([]);
  expect(rejectedCode(await post(t.s, t.v, 'gettrackinfo', [{ number: t.n }]))).toBe(-18019902);
  const before = await quotaUsed(t.s);
  await register(t);
  expect(await quotaUsed(t.s)).toBe(before + 1);
}

describe('the chosen numbers have the outcomes the rows rely on', () => {
  it.each([
    [NO_EVENT, 'not_found'],
    [GOES_QUIET, 'stalled'],
    [DELIVERED, 'delivered'],
    [INVALID, 'invalid_code'],
  ])('%s is %s', (number, scenario) => {
    expect(scenarioOf(number, 3011).scenario).toBe(scenario);
  });
});

describe.each(VERSIONS)('state table over HTTP, %s', (v) => {
  let t: T;
  beforeEach(async () => {
    const rx = await new Receiver().start();
    t = { s: await openSandbox({ webhookUrl: rx.url }), rx, v, n: ANY };
  });
  afterEach(async () => {
    await t.s.close();
    await t.rx.close();
  });

  const title = (r: StateRow) =>
    `${r.from} --${r.trigger} [${r.condition}]--> ${r.next}${r.effects ? `; ${r.effects}` : ''}`;
  it.each(titled(STATE_TABLE, title))('%s', async (_title, row) => {
    t.n = row.number ?? ANY;
    await row.run(t);
    expect(await stateOf(t.s, v, t.n)).toEqual(row.end);
  });
});

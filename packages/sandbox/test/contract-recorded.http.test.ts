// Every recorded answer of test/fixtures replayed against the emulator, over HTTP on 127.0.0.1: the same request
// (or the nearest the simulated world allows: its own numbers and carriers) is sent to the emulator, and the shape
// of its answer (keys, types, nesting, enum values, date formats; see shape.ts) is compared with the recording's.
// The differences we keep are listed below, each with the reason; any other difference fails, and so does an
// entry of the list that no longer occurs.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiVersion, Operation } from '@trk/service/vocabulary.js';
import type { RunningSandbox } from '../src/index.js';
import { findNumber, planShipment, sampleNumber } from '../src/world/shipment.js';
import { fixtureJson } from '../../../test/fixture-files.js';
import { call } from './http.js';
import { accepted, apiPath, DAY, openSandbox, post, Receiver } from './contract-helpers.js';
import { type Difference, shapeDifferences } from './shape.js';

/** A difference we keep: `kind path`, and why. */
type Allowed = readonly [difference: string, why: string];

// The v2 samples follow a minor version newer than the spec (see test/fixtures/README.md): the emulator serves the
// fields the spec does not describe on v2.2 to v2.4 only (@trk/sandbox/ops/newer-fields.ts), so they are missing
// from its v2.1 answers and present in its later ones.
const NEWER_ITEM_SAMPLE = fixtureJson('doc-v2/gettrackinfo_yanwen_190012.json').data.accepted[0];
const NEWER_GETTRACKINFO_ITEM: Allowed[] = Object.keys(NEWER_ITEM_SAMPLE)
  .filter((k) => !['number', 'carrier', 'param', 'tag', 'track_info'].includes(k))
  .map((k) => [`missing data.accepted[].${k}`, 'a field of a newer minor version, not in the spec']);
const NEWER_PROVIDER: Allowed = [
  'missing data.accepted[].track_info.tracking.providers[].provider_tips',
  'a field of a newer minor version, not in the spec',
];

/** What the emulator answers for one recording, and the differences kept. */
interface Replay {
  fixture: string;
  allowed: readonly Allowed[];
  /** The emulator's answer to the recording's request. */
  answer: () => Promise<unknown>;
  /** The rejected items are the recording's, word for word (the live wording of the error messages). */
  sameRejected?: boolean;
}

let s: RunningSandbox;
let hooks: Receiver;

/** A request whose answer is taken as it comes (status 200 expected). */
async function answerOf(version: ApiVersion, op: Operation, body: unknown): Promise<unknown> {
  const a = await post(s, version, op, body);
  expect(a.status, a.text).toBe(200);
  return a.json;
}

/** The same request under a later version (v2.2 to v2.4: v2.1's paths and rules, the newer documentation's fields). */
async function answerLater(version: 'v2.2' | 'v2.3' | 'v2.4', op: Operation, body: unknown): Promise<unknown> {
  const path = apiPath('v2.1', op).replace('/v2.1/', `/${version}/`);
  const a = await call(s.url, path, { key: s.key, body: JSON.stringify(body) });
  expect(a.status, a.text).toBe(200);
  return a.json;
}

/** A delivered postal item with two providers (events in z1 and z2). */
function postal2(carrier: number): string {
  for (let i = 0; ; i++) {
    const n = sampleNumber(carrier, i);
    const plan = planShipment(n, carrier, 0);
    if (plan.route.length === 2 && plan.scenario === 'delivered') return n;
  }
}

// Numbers of the simulated world with the stories the recordings tell.
const V1_DELIVERED = postal2(3011);
const V1_TRANSIT = findNumber(190012, { scenario: 'stalled' })!;
const CORREIOS = findNumber(2151, { scenario: 'delivered' })!;
const YANWEN = findNumber(190012, { scenario: 'delivered' })!;
const RETURNING = findNumber(2151, { finalSubStatus: 'Exception_Returning' })!;
const QUIET = findNumber(3011, { scenario: 'not_found' })!;

beforeAll(async () => {
  hooks = await new Receiver().start();
  s = await openSandbox({ webhookUrl: hooks.url });
  // Stories 60 simulated days long: delivered parcels, one in transit, one returning, one that expires.
  await accepted(
    s,
    'v1',
    'register',
    [V1_DELIVERED, V1_TRANSIT].map((number) => ({ number })),
  );
  await accepted(s, 'v2.1', 'register', [
    { number: CORREIOS, tag: 'order-1042', order_no: '86574382938', order_time: '2026-06-24T10:00:00-03:00' },
    { number: YANWEN },
    { number: RETURNING },
    { number: QUIET },
  ]);
  await accepted(s, 'v1', 'stoptrack', [{ number: V1_TRANSIT }]);
  await s.advance(60 * DAY);
});
afterAll(async () => {
  await s.close();
  await hooks.close();
});

const REPLAYS: Replay[] = [
  // ---- v1, recorded from the live service ----
  {
    fixture: 'real-v1/register_success_response.json',
    allowed: [],
    answer: () => answerOf('v1', 'register', [{ number: '1234567890', carrier: 100003 }]),
  },
  {
    fixture: 'real-v1/register_existing_response.json',
    allowed: [],
    sameRejected: true,
    answer: () => answerOf('v1', 'register', [{ number: '1234567890', carrier: 100003 }]),
  },
  {
    fixture: 'real-v1/changeinfo_success_response.json',
    allowed: [],
    answer: () => answerOf('v1', 'changeinfo', { number: V1_DELIVERED, items: { tag: 'x' } }),
  },
  {
    fixture: 'real-v1/changeinfo_nonexistant_response.json',
    allowed: [],
    sameRejected: true,
    // The recording's number, under a carrier it is not registered with.
    answer: () => answerOf('v1', 'changeinfo', { number: '1234567890', carrier: 100002, items: { tag: 'x' } }),
  },
  {
    fixture: 'real-v1/error_response.json',
    allowed: [],
    answer: async () => (await call(s.url, '/track/v1/gettrackinfo', { key: 'not-the-key', body: '[]' })).json,
  },
  ...['real-v1/gettrackinfo_success_response.json', 'real-v1/gettrackinfo_with_unknown_status_response.json'].map(
    (fixture): Replay => ({
      fixture,
      allowed: [
        ['extra data.accepted[].tag', 'the spec lists tag in v1 gettrackinfo items; the recorded ones lack it'],
        [
          'extra data.accepted[].track.ln2',
          'the language of the second carrier, as the recorded v1 push and the v1 example carry',
        ],
        ['extra data.accepted[].track.ln9', 'as the recorded v1 push carries'],
        [
          'extra data.accepted[].track.z0.b',
          "b (location mapping, unused) is in the spec's v1 event, the recorded push and the v1 example",
        ],
        [
          'extra data.accepted[].track.z1[].b',
          "b (location mapping, unused) is in the spec's v1 event, the recorded push and the v1 example",
        ],
        ...(fixture.includes('unknown')
          ? [
              [
                'enum data.accepted[].track.e',
                'the recording carries the unknown status 5000 on purpose; the emulator sends only known codes',
              ] as const,
            ]
          : []),
      ],
      answer: () => answerOf('v1', 'gettrackinfo', [{ number: V1_DELIVERED }, { number: V1_TRANSIT }]),
    }),
  ),
  {
    fixture: 'real-v1/gettracklist_success_response.json',
    allowed: [
      ['extra data.accepted[].pt', "pt (latest push time) is in the spec's v1 record; the recorded records lack it"],
      [
        'enum data.accepted[].e',
        "the recording carries status codes outside the spec's list (3000, 4000, 5000); the emulator sends only " +
          'documented ones',
      ],
    ],
    answer: () => answerOf('v1', 'gettracklist', {}),
  },
  // ---- v1, the service's documentation examples (the data part only) ----
  {
    fixture: 'real-v1/doc-register-example.json',
    allowed: [
      ['extra accepted[].origin', 'the spec and the live answers carry origin; the documentation example does not'],
    ],
    answer: async () =>
      ((await answerOf('v1', 'register', [{ number: 'RR123456780CN', carrier: 3011 }, { number: '1234' }])) as any)
        .data,
  },
  {
    fixture: 'real-v1/doc-gettrackinfo-example.json',
    allowed: [
      ['extra rejected', 'the example shows accepted only; every answer has rejected too'],
      ['extra accepted[].tag', 'the spec lists tag in v1 gettrackinfo items'],
      ...['z9', 'ygt9', 'ylt9', 'ln9', 'yt', 'zex'].map(
        (k): Allowed => [`extra accepted[].track.${k}`, 'in the live answers, not in the older example'],
      ),
    ],
    answer: async () => ((await answerOf('v1', 'gettrackinfo', [{ number: V1_DELIVERED }])) as any).data,
  },
  // ---- v2 and v2.1 (samples after the v2 documentation, of a newer minor version) ----
  {
    fixture: 'doc-v2/getquota.json',
    allowed: [],
    answer: () => answerOf('v2', 'getquota', []),
  },
  {
    fixture: 'doc-v2/register_mixed.json',
    allowed: [
      ['extra data.rejected[].tag', 'the spec gives v2 rejected items {number, tag, error}; the sample lacks tag'],
    ],
    answer: () => answerOf('v2.1', 'register', [{ number: 'AA123456789BR', tag: 'order-1042' }, { number: '1234' }]),
  },
  {
    fixture: 'doc-v2/register_already_registered.json',
    allowed: [
      ['extra data.rejected[].tag', 'the spec gives v2 rejected items {number, tag, error}; the sample lacks tag'],
    ],
    answer: () => answerOf('v2', 'register', [{ number: 'AA123456789BR' }]),
  },
  ...(
    [
      ['doc-v2/gettrackinfo_correios_2151.json', CORREIOS],
      ['doc-v2/gettrackinfo_yanwen_190012.json', YANWEN],
      ['doc-v2/gettrackinfo_exception_returning.json', RETURNING],
    ] as const
  ).map(
    ([fixture, number]): Replay => ({
      fixture,
      // The returning sample is leaner: of the newer fields it has lang and special_tracking_info only.
      allowed: [
        ...NEWER_GETTRACKINFO_ITEM.filter(
          ([d]) => fixture !== 'doc-v2/gettrackinfo_exception_returning.json' || /lang|special/.test(d),
        ),
        NEWER_PROVIDER,
        ...(fixture.includes('yanwen')
          ? [
              [
                'enum data.accepted[].track_info.tracking.providers[].events[].sub_status',
                'the sample carries an unknown sub-status on purpose (clients must tolerate it); the emulator ' +
                  'sends only documented ones',
              ] as const,
            ]
          : []),
      ],
      answer: () => answerOf('v2.1', 'gettrackinfo', [{ number }]),
    }),
  ),
  // ---- the same samples on v2.2 to v2.4: the newer documentation's fields are all there ----
  ...(
    [
      ['doc-v2/gettrackinfo_correios_2151.json', CORREIOS, 'v2.2'],
      ['doc-v2/gettrackinfo_yanwen_190012.json', YANWEN, 'v2.3'],
      ['doc-v2/gettrackinfo_exception_returning.json', RETURNING, 'v2.4'],
    ] as const
  ).map(
    ([fixture, number, version]): Replay => ({
      fixture: `${fixture} on ${version}`,
      allowed: [
        // The returning sample is leaner: of the newer item fields it has lang and special_tracking_info only.
        ...(fixture.includes('returning')
          ? NEWER_GETTRACKINFO_ITEM.filter(([d]) => !/lang|special/.test(d)).map(
              ([d]): Allowed => [
                d.replace('missing', 'extra'),
                'the newer documentation shows these fields; this sample leaves them out',
              ],
            )
          : []),
        ...(fixture.includes('yanwen')
          ? [
              [
                'enum data.accepted[].track_info.tracking.providers[].events[].sub_status',
                'the sample carries an unknown sub-status on purpose',
              ] as const,
            ]
          : []),
      ],
      answer: () => answerLater(version, 'gettrackinfo', [{ number }]),
    }),
  ),
  {
    fixture: 'doc-v2/gettracklist_page.json on v2.2',
    allowed: ['days_after_order', 'days_after_last_update', 'days_of_transit', 'days_of_transit_done'].map(
      (k): Allowed => [`extra data.accepted[].${k}`, "the spec's v2.1 record has the day metrics, the sample not"],
    ),
    answer: () => answerLater('v2.2', 'gettracklist', {}),
  },
  {
    fixture: 'doc-v2/gettracklist_page.json',
    allowed: [
      ['missing data.accepted[].sync_status', 'a field of a newer minor version, not in the spec'],
      ...['days_after_order', 'days_after_last_update', 'days_of_transit', 'days_of_transit_done'].map(
        (k): Allowed => [
          `extra data.accepted[].${k}`,
          "the spec's v2.1 record has the day metrics; the sample lacks them",
        ],
      ),
    ],
    answer: () => answerOf('v2.1', 'gettracklist', {}),
  },
  // ---- webhook bodies ----
  {
    fixture: 'doc-v2/webhook_tracking_stopped.json',
    allowed: [],
    answer: async () => hooks.received.find((r) => r.event === 'TRACKING_STOPPED' && r.number === QUIET)?.body,
  },
  {
    fixture: 'webhooks/v1-tracking-updated.json',
    allowed: [
      ['extra data.tag', 'the spec gives v1 TRACKING_UPDATED data {number, tag, track}; the recorded push lacks tag'],
    ],
    answer: async () => hooks.received.find((r) => r.event === 'TRACKING_UPDATED' && r.number === V1_DELIVERED)?.body,
  },
];

const line = (d: Difference): string => `${d.kind} ${d.path}`;

describe('every recorded answer, replayed against the emulator: same shape but for the differences we keep', () => {
  it.each(REPLAYS.map((r) => [r.fixture, r] as const))('%s', async (_fixture, replay) => {
    const recorded = fixtureJson(replay.fixture.replace(/ on v2\.\d$/, ''));
    const emulated = await replay.answer();
    expect(emulated, 'the emulator gave no answer to compare').toBeDefined();
    const found = shapeDifferences(recorded, emulated);
    const allowed = new Set(replay.allowed.map(([d]) => d));
    const unexpected = found.filter((d) => !allowed.has(line(d))).map((d) => `${line(d)}: ${d.detail}`);
    expect(unexpected, 'differences not in the allow-list').toEqual([]);
    const stale = [...allowed].filter((a) => !found.some((d) => line(d) === a));
    expect(stale, 'allowed differences that no longer occur').toEqual([]);
    if (replay.sameRejected) expect((emulated as any).data.rejected).toEqual((recorded as any).data.rejected);
  });
});

// Notifications that do not have the documented shape: answered 400 once their signature holds, never stored, saved
// or forwarded, counted among the refusals; every body the fixtures hold (recorded and documented) is taken in.
import { readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createTestIO } from '../../test-io.js';
import { notificationProblem } from '@trk/service/webhook-body.js';
import { StoreSink } from '../../../src/mirror/webhook-sink.js';
import { SqliteStore } from '../../../src/store/sqlite.js';
import { startListener, type ListenerOptions } from '../../../src/webhook/listen.js';
import { rawMember } from '../../../src/webhook/raw-json.js';
import { detectVersion, signV1 } from '../../../src/webhook/verify.js';
import { fixtureBytes, fixturePath } from '../../fixture-files.js';
import { afterTest, app, signed, tempDir } from '../app.js';

const KEY = 'shape-test-key';

/** A body with the signature it would carry under KEY: v1's in the body (its other bytes unchanged), v2's header. */
function signedBody(text: string): { body: Buffer; headers: Record<string, string> } {
  if (detectVersion(text) === 'v1') {
    const event = JSON.parse(text).event as string;
    const sign = signV1(event, JSON.stringify(JSON.parse(rawMember(text, 'data')!)), KEY);
    return { body: Buffer.from(text.replace(/"sign":"[0-9a-f]*"/, `"sign":"${sign}"`)), headers: {} };
  }
  const body = Buffer.from(text);
  return { body, headers: signed(body, KEY) };
}

/** Every webhook body of the fixtures: the recorded pushes, and the documentation's examples. */
const FIXTURE_BODIES = [
  ...readdirSync(fixturePath('webhooks')).map((f) => `webhooks/${f}`),
  ...readdirSync(fixturePath('doc-v2'))
    .filter((f) => f.startsWith('webhook_'))
    .map((f) => `doc-v2/${f}`),
];

const TRACK_INFO = { latest_status: { status: 'InTransit', sub_status: 'InTransit_Other', sub_status_descr: null } };
const updated = (data: Record<string, unknown>) => JSON.stringify({ event: 'TRACKING_UPDATED', data });

/** Signed bodies of another shape, and what the refusal says of each. */
const MISSHAPEN: readonly [string, string, RegExp][] = [
  ['no number', '{"event":"TRACKING_UPDATED","data":{"carrier":1}}', /data\.number is missing, not text/],
  [
    'a number that is an object',
    updated({ number: { a: 1 }, carrier: 3011, param: null, tag: null, track_info: TRACK_INFO }),
    /data\.number is an object, not text/,
  ],
  [
    'an update without track_info',
    updated({ number: 'RR123456789CN', carrier: 3011, param: null, tag: null }),
    /data\.track_info is missing, not an object/,
  ],
  [
    'a carrier that is not a whole number',
    updated({ number: 'RR123456789CN', carrier: '3011', param: null, tag: null, track_info: TRACK_INFO }),
    /data\.carrier is a string, not a carrier code/,
  ],
  [
    'a stop without a carrier',
    JSON.stringify({ event: 'TRACKING_STOPPED', data: { number: 'RR123456789CN', tag: '' } }),
    /data\.carrier is missing/,
  ],
  ['no data', JSON.stringify({ event: 'TRACKING_STOPPED' }), /data is missing, not an object/],
  ['not JSON', 'event=TRACKING_UPDATED', /the body is not JSON/],
];

describe('the documented shape of a notification', () => {
  it.each(FIXTURE_BODIES)('%s has it', (file) => {
    const text = fixtureBytes(file).toString('utf8');
    expect(notificationProblem(JSON.parse(text), detectVersion(text) ?? 'v2')).toBeUndefined();
  });

  it.each(MISSHAPEN)('%s has not', (_, text, why) => {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    expect(notificationProblem(body, 'v2')).toMatch(why);
  });

  it('of v1: an update carries track, its carrier may be left out (the recorded push names none in data)', () => {
    const data = { number: 'RR123456789CN', tag: null, track: { w1: 3011, e: 10 } };
    expect(notificationProblem({ event: 'TRACKING_UPDATED', data }, 'v1')).toBeUndefined();
    const { track: _, ...bare } = data;
    expect(notificationProblem({ event: 'TRACKING_UPDATED', data: bare }, 'v1')).toMatch(/data\.track is missing/);
    expect(notificationProblem({ event: 'TRACKING_UPDATED', data: { ...data, carrier: 'x' } }, 'v1')).toMatch(
      /data\.carrier is a string/,
    );
  });

  it('param and tag may be missing or null, else text; an event of another name needs only its data', () => {
    const stop = { number: 'RR123456789CN', carrier: 3011 };
    expect(notificationProblem({ event: 'TRACKING_STOPPED', data: stop }, 'v2')).toBeUndefined();
    expect(notificationProblem({ event: 'TRACKING_STOPPED', data: { ...stop, tag: 5 } }, 'v2')).toMatch(
      /data\.tag is a number, not text/,
    );
    expect(notificationProblem({ event: 'PARCEL_FOUND', data: {} }, 'v2')).toBeUndefined();
    expect(notificationProblem({ event: '', data: {} }, 'v2')).toMatch(/event is empty/);
  });
});

async function listening(opts: Partial<ListenerOptions>) {
  const io = createTestIO();
  const listener = await startListener({ io, key: KEY, now: () => Date.parse('2025-03-01T12:00:00Z'), ...opts });
  afterTest(() => listener.close());
  return { listener, io };
}

async function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  await res.body.dump();
  return res.statusCode;
}

describe('the listener', () => {
  it('answers 400 to a signed notification of another shape: not stored, saved or forwarded; counted', async () => {
    const dir = await tempDir();
    const store = await SqliteStore.open(path.join(dir, 'mirror.db'));
    const target = await app();
    const saveDir = path.join(dir, 'saved');
    const { listener, io } = await listening({
      sinks: [new StoreSink(store)],
      saveDir,
      forwardTo: target.url,
      queueRoot: path.join(dir, 'queue'),
    });
    for (const [, text] of MISSHAPEN) {
      const { body, headers } = signedBody(text);
      expect(await post(listener.url, body, headers)).toBe(400);
    }
    await listener.waitFor(MISSHAPEN.length);
    expect(listener.counts).toEqual({ handled: MISSHAPEN.length, accepted: 0, refused: MISSHAPEN.length });
    const refusals = io
      .stderrText()
      .split('\n')
      .filter((l) => / 400 /.test(l));
    expect(refusals).toHaveLength(MISSHAPEN.length);
    expect(refusals[0]).toMatch(/400 body not of the documented shape \(data\.number is missing, not text\)/);
    expect(io.stdoutText()).toBe('');
    await listener.close();
    expect(listener.summary().head).toMatch(`stopped: ${MISSHAPEN.length} notifications, ${MISSHAPEN.length} refused`);
    expect(await readdir(saveDir)).toEqual([]);
    expect(target.got).toEqual([]);
    const mirror = await SqliteStore.open(path.join(dir, 'mirror.db'));
    afterTest(() => mirror.close());
    expect(await mirror.counts()).toEqual({ records: 0, details: 0, changes: 0 });
  });

  it('takes in every body the fixtures hold', async () => {
    const target = await app();
    const dir = await tempDir();
    const { listener } = await listening({ forwardTo: target.url, queueRoot: path.join(dir, 'queue') });
    for (const file of FIXTURE_BODIES) {
      const { body, headers } = signedBody(fixtureBytes(file).toString('utf8'));
      expect(await post(listener.url, body, headers), file).toBe(200);
    }
    await listener.waitFor(FIXTURE_BODIES.length);
    expect(listener.counts.accepted).toBe(FIXTURE_BODIES.length);
  });
});

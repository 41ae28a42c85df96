// The state table of the specification, row by row, and the item errors of stoptrack, retrack,
// deletetrack and push.

import { describe, expect, it } from 'vitest';
import type { ApiVersion, Operation } from '@trk/service/vocabulary.js';
import { type Json, START, chinaPost, makeAccount } from './account-fixture.js';

const CN = chinaPost(1);

function listed(t: ReturnType<typeof makeAccount>, number = CN): Json {
  return t.v2('gettracklist', { number }).data.accepted;
}

describe('state table', () => {
  it('register → Tracking', () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    expect(listed(t)[0]).toMatchObject({
      tracking_status: 'Tracking',
      stop_track_time: null,
      stop_track_reason: null,
      is_retracked: false,
    });
  });

  it('stoptrack → Stopped ByRequest; again → -18019906', () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    t.setTime(START + 60_000);
    expect(t.v2('stoptrack', [{ number: CN }])).toEqual({
      code: 0,
      data: { accepted: [{ number: CN, carrier: 3011 }], rejected: [] },
    });
    expect(listed(t)[0]).toMatchObject({
      tracking_status: 'Stopped',
      stop_track_reason: 'ByRequest',
      stop_track_time: '2026-03-02T10:01:00Z',
    });
    const again = t.v2('stoptrack', [{ number: CN }]);
    expect(again.data.rejected).toEqual([
      {
        number: CN,
        carrier: 3011,
        tag: null,
        error: { code: -18019906, message: 'only numbers being tracked can be stopped' },
      },
    ]);
  });

  it('retrack: only stopped (-18019904), only once (-18019905), is_retracked true', () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN, tag: 'k' }]);
    expect(t.v2('retrack', [{ number: CN }]).data.rejected[0]).toMatchObject({ tag: 'k', error: { code: -18019904 } });
    t.v2('stoptrack', [{ number: CN }]);
    expect(t.v2('retrack', [{ number: CN }]).data.accepted).toEqual([{ number: CN, carrier: 3011 }]);
    expect(listed(t)[0]).toMatchObject({
      tracking_status: 'Tracking',
      is_retracked: true,
      stop_track_time: null,
      stop_track_reason: null,
    });
    t.v2('stoptrack', [{ number: CN }]);
    expect(t.v2('retrack', [{ number: CN }]).data.rejected[0].error).toEqual({
      code: -18019905,
      message: 'each number can be re-tracked once only',
    });
    expect(t.v2('getquota', []).data.quota_used).toBe(1); // retrack is free
  });

  it('deletetrack → gone; later operations -18019902; registering again charges again', () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    expect(t.v2('deletetrack', [{ number: CN }]).data.accepted).toEqual([{ number: CN, carrier: 3011 }]);
    expect(listed(t)).toEqual([]);
    for (const op of ['stoptrack', 'retrack', 'deletetrack', 'push', 'gettrackinfo'] as Operation[]) {
      expect(t.v2(op, [{ number: CN }]).data.rejected[0].error).toEqual({
        code: -18019902,
        message: `The tracking number '${CN}' does not register, please register first.`,
      });
    }
    t.v2('register', [{ number: CN }]);
    expect(t.v2('getquota', []).data.quota_used).toBe(2);
    expect(listed(t)[0]).toMatchObject({ tracking_status: 'Tracking', is_retracked: false });
  });

  it('deletetrack works on stopped numbers too', () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    t.v2('stoptrack', [{ number: CN }]);
    expect(t.v2('deletetrack', [{ number: CN, carrier: 3011 }]).data.accepted).toHaveLength(1);
  });
});

describe('item errors shared by stoptrack, retrack, deletetrack, push, gettrackinfo', () => {
  const ops: Operation[] = ['stoptrack', 'retrack', 'deletetrack', 'push', 'gettrackinfo'];
  const cases: [string, unknown, number][] = [
    ['number missing', {}, -18010010],
    ['number not a string', { number: 5 }, -18010011],
    ['carrier not an integer', { number: CN, carrier: 'x' }, -18010011],
    ['unknown carrier code', { number: CN, carrier: 999999 }, -18019910],
    ['not registered under that carrier', { number: CN, carrier: 21051 }, -18019902],
    ['not registered at all', { number: chinaPost(99) }, -18019902],
  ];
  for (const op of ops) {
    it.each(cases)(`${op}: %s`, (_name, item, code) => {
      const t = makeAccount({ settings: { webhookUrl: 'http://127.0.0.1:1/hook' } });
      t.v2('register', [{ number: CN }]);
      expect(t.v2(op, [item]).data.rejected[0].error.code).toBe(code);
    });
    it(`${op}: whole-request errors`, () => {
      const t = makeAccount();
      expect(t.v2(op, { number: CN }).code).toBe(-18010013);
      expect(
        t.v2(
          op,
          Array.from({ length: 41 }, () => ({ number: CN })),
        ).code,
      ).toBe(-18010014);
    });
  }

  it('carrier omitted: every record of the number is processed', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }, { number: CN, carrier: 21051 }]);
    await t.advance(30_000); // first results in: gettrackinfo accepts them
    expect(t.v2('stoptrack', [{ number: CN }]).data.accepted).toEqual([
      { number: CN, carrier: 3011 },
      { number: CN, carrier: 21051 },
    ]);
    // One already running again: one accepted, one rejected.
    t.v2('retrack', [{ number: CN, carrier: 21051 }]);
    const env = t.v2('retrack', [{ number: CN }]);
    expect(env.data.accepted).toEqual([{ number: CN, carrier: 3011 }]);
    expect(env.data.rejected).toEqual([
      {
        number: CN,
        carrier: 21051,
        tag: null,
        error: { code: -18019904, message: 'only stopped numbers can be re-tracked' },
      },
    ]);
    expect(t.v2('gettrackinfo', [{ number: CN }]).data.accepted).toHaveLength(2);
    expect(t.v2('deletetrack', [{ number: CN }]).data.accepted).toHaveLength(2);
    expect(t.v2('gettracklist', {}).page.data_total).toBe(0);
  });

  it('v1: deleteTrack requires the carrier; rejected items are {number, error}', () => {
    const t = makeAccount();
    t.v1('register', [{ number: CN, carrier: 3011 }]);
    expect(t.v1('deletetrack', [{ number: CN }]).data.rejected).toEqual([
      { number: CN, error: { code: -18010010, message: 'required data carrier missing' } },
    ]);
    expect(t.v1('deletetrack', [{ number: CN, carrier: 3011 }]).data.accepted).toEqual([{ number: CN, carrier: 3011 }]);
  });

  it.each(['v1', 'v2', 'v2.1'] as ApiVersion[])('%s: stoptrack and retrack accept {number, carrier}', (version) => {
    const t = makeAccount();
    t.call(version, 'register', [{ number: CN, carrier: 3011 }]);
    expect(t.call(version, 'stoptrack', [{ number: CN }]).data.accepted).toEqual([{ number: CN, carrier: 3011 }]);
    expect(t.call(version, 'retrack', [{ number: CN, carrier: 3011 }]).data.accepted).toEqual([
      { number: CN, carrier: 3011 },
    ]);
  });
});

describe('push', () => {
  it('without a webhook URL → -18010204', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    await t.advance(30_000);
    expect(t.v2('push', [{ number: CN }]).data.rejected[0].error).toEqual({
      code: -18010204,
      message: 'webhook URL not set; cannot push',
    });
  });

  it('before the first tracking run → -18019909; after it accepted and sent by the scheduler', async () => {
    const t = makeAccount({ settings: { webhookUrl: 'http://127.0.0.1:1/hook' } });
    t.v2('register', [{ number: CN }]);
    expect(t.v2('push', [{ number: CN }]).data.rejected[0].error.code).toBe(-18019909);
    await t.advance(30_000);
    const before = t.sent.length;
    expect(t.v2('push', [{ number: CN }])).toEqual({
      code: 0,
      data: { accepted: [{ number: CN, carrier: 3011 }], rejected: [] },
    });
    expect(t.sent.length).toBe(before); // queued, not sent by the request
    await t.account.tick();
    expect(t.sent.length).toBe(before + 1);
    expect(JSON.parse(t.sent.at(-1)?.body ?? '{}')).toMatchObject({
      event: 'TRACKING_UPDATED',
      data: { number: CN, carrier: 3011 },
    });
  });

  it('stopped numbers can be pushed', async () => {
    const t = makeAccount({ settings: { webhookUrl: 'http://127.0.0.1:1/hook' } });
    t.v2('register', [{ number: CN }]);
    await t.advance(30_000);
    t.v2('stoptrack', [{ number: CN }]);
    expect(t.v2('push', [{ number: CN }]).data.accepted).toHaveLength(1);
    const before = t.sent.length;
    await t.account.tick();
    expect(t.sent.length).toBe(before + 1);
  });
});

import { describe, expect, it } from 'vitest';
import { formatCodeMessage } from '@trk/service/codes.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import { sampleNumber } from '../src/world/index.js';
import { DAY, type Json, START, chinaPost, makeAccount } from './account-fixture.js';

const CN = chinaPost(1); // S10 China Post: detected confidently
const YANWEN = sampleNumber(190012, 1);
const FEDEX_WEAK = sampleNumber(100003, 1); // 12 digits: a weak guess (origin 3)

function rejectedCode(env: Json): number {
  expect(env.code).toBe(0);
  expect(env.data.accepted).toEqual([]);
  expect(env.data.rejected).toHaveLength(1);
  return env.data.rejected[0].error.code;
}

describe('register: whole-request errors', () => {
  const cases: [string, unknown, number][] = [
    ['object instead of array', { number: CN }, -18010013],
    ['null body', null, -18010013],
    ['item not an object', [CN], -18010013],
    ['41 items', Array.from({ length: 41 }, (_, i) => ({ number: chinaPost(i) })), -18010014],
  ];
  for (const version of ['v1', 'v2', 'v2.1'] as ApiVersion[]) {
    it.each(cases)(`${version}: %s → data.errors`, (_name, body, code) => {
      const t = makeAccount();
      const env = t.call(version, 'register', body);
      expect(env).toEqual({ code, data: { errors: [{ code, message: formatCodeMessage(code) }] } });
      expect(t.v2('getquota', []).data.quota_used).toBe(0);
    });
  }

  it('40 items are accepted', () => {
    const t = makeAccount();
    const env = t.v2(
      'register',
      Array.from({ length: 40 }, (_, i) => ({ number: chinaPost(i) })),
    );
    expect(env.data.accepted).toHaveLength(40);
  });

  it('an empty array answers empty lists', () => {
    expect(makeAccount().v2('register', [])).toEqual({ code: 0, data: { accepted: [], rejected: [] } });
  });
});

describe('register: item errors', () => {
  const long = (n: number): string => 'x'.repeat(n);
  const cases: [string, ApiVersion, Record<string, unknown>, number, string][] = [
    ['number missing', 'v2', {}, -18010010, 'required data number missing'],
    ['number empty', 'v2', { number: '' }, -18010010, 'required data number missing'],
    ['number not a string', 'v2', { number: 12345678 }, -18010011, 'value of number invalid'],
    ['number too short', 'v2', { number: '1234' }, -18010012, "The format of '1234' is invalid."],
    ['number too long', 'v2', { number: 'A'.repeat(51) }, -18010012, `The format of '${'A'.repeat(51)}' is invalid.`],
    ['number with a space', 'v2.1', { number: 'AB 123456' }, -18010012, "The format of 'AB 123456' is invalid."],
    [
      'hyphen in v1',
      'v1',
      { number: 'RR-123456789CN', carrier: 3011 },
      -18010012,
      "The format of 'RR-123456789CN' is invalid.",
    ],
    ['tag over 100', 'v2', { number: CN, tag: long(101) }, -18010011, 'value of tag invalid'],
    ['tag over 100 (v1)', 'v1', { number: CN, tag: long(101), carrier: 3011 }, -18010011, 'value of tag invalid'],
    ['email over 250', 'v2', { number: CN, email: long(251) }, -18010011, 'value of email invalid'],
    ['remark over 1000', 'v2.1', { number: CN, remark: long(1001) }, -18010011, 'value of remark invalid'],
    ['order_time not a date', 'v2.1', { number: CN, order_time: 'soon' }, -18010011, 'value of order_time invalid'],
    ['unknown lang', 'v2', { number: CN, lang: 'xx' }, -18010015, 'value xx of field lang invalid'],
    ['carrier not an integer', 'v2', { number: CN, carrier: 'abc' }, -18010011, 'value of carrier invalid'],
    ['undetectable number', 'v2', { number: 'XX12345678' }, -18019903, 'carrier cannot be detected'],
    [
      'unknown code, undetectable',
      'v2',
      { number: 'XX12345678', carrier: 999999 },
      -18019910,
      'carrier code 999999 incorrect',
    ],
    [
      'auto_detection off without carrier',
      'v2',
      { number: CN, auto_detection: false },
      -18019903,
      'carrier cannot be detected',
    ],
    [
      'auto_detection off, carrier null (absent)',
      'v2.1',
      { number: CN, carrier: null, auto_detection: false },
      -18019903,
      'carrier cannot be detected',
    ],
    [
      'final_carrier on a non-postal carrier',
      'v2',
      { number: YANWEN, final_carrier: 21051 },
      -18010016,
      formatCodeMessage(-18010016),
    ],
    ['unknown final_carrier', 'v2', { number: CN, final_carrier: 999999 }, -18019910, 'carrier code 999999 incorrect'],
    ['phone param missing (SF)', 'v2', { number: sampleNumber(100012, 1) }, -18010020, formatCodeMessage(-18010020)],
    [
      'postal code missing (DPD UK)',
      'v2',
      { number: sampleNumber(100010, 1) },
      -18010019,
      formatCodeMessage(-18010019),
    ],
    [
      'country + postal code missing (GLS)',
      'v2',
      { number: sampleNumber(100005, 1) },
      -18010018,
      formatCodeMessage(-18010018),
    ],
    [
      'date missing (Toll)',
      'v2',
      { number: sampleNumber(100009, 1), carrier: 100009 },
      -18010022,
      formatCodeMessage(-18010022),
    ],
    [
      'v1 extra_param missing (SF)',
      'v1',
      { number: sampleNumber(100012, 1), carrier: 100012 },
      -18010020,
      formatCodeMessage(-18010020),
    ],
    [
      'phone param of wrong form',
      'v2',
      { number: sampleNumber(100012, 1), param: '12' },
      -18010011,
      'value of param invalid',
    ],
    [
      'GLS param without country',
      'v2',
      { number: sampleNumber(100005, 1), param: '10115' },
      -18010011,
      'value of param invalid',
    ],
    [
      'Toll param not a date',
      'v2',
      { number: sampleNumber(100009, 1), carrier: 100009, param: '2026-13-45' },
      -18010011,
      'value of param invalid',
    ],
  ];
  it.each(cases)('%s', (_name, version, item, code, message) => {
    const t = makeAccount();
    const env = t.call(version, 'register', [item]);
    expect(rejectedCode(env)).toBe(code);
    expect(env.data.rejected[0].error.message).toBe(message);
    // Invalid items cost nothing.
    expect(t.v2('getquota', []).data.quota_used).toBe(0);
  });

  it('v2 rejected items carry number (as sent), carrier (0 when unknown), tag and error', () => {
    const t = makeAccount();
    const env = t.v2('register', [{ number: '1234', tag: 'a' }]);
    expect(env.data.rejected).toEqual([
      { number: '1234', carrier: 0, tag: 'a', error: { code: -18010012, message: "The format of '1234' is invalid." } },
    ]);
  });

  it('v1 rejected items are {number, error}', () => {
    const env = makeAccount().v1('register', [{ number: '1234' }]);
    expect(env.data.rejected).toEqual([
      { number: '1234', error: { code: -18010012, message: "The format of '1234' is invalid." } },
    ]);
  });

  it('params of the right form are accepted', () => {
    const t = makeAccount();
    const env = t.v2('register', [
      { number: sampleNumber(100012, 1), param: '1234' },
      { number: sampleNumber(100010, 1), param: 'SW1A 1AA' },
      { number: sampleNumber(100005, 1), param: 'DE-10115' },
      { number: sampleNumber(100009, 1), carrier: 100009, param: '2026-03-01' },
    ]);
    expect(env.data.rejected).toEqual([]);
    expect(env.data.accepted.map((a: Json) => a.carrier)).toEqual([100012, 100010, 100005, 100009]);
  });
});

describe('register: accepted items and origin', () => {
  it('v2: {origin, number, carrier, tag}', () => {
    const env = makeAccount().v2('register', [{ number: CN, tag: 'order-1', email: 'a@b.c', lang: 'en' }]);
    expect(env).toEqual({
      code: 0,
      data: { accepted: [{ origin: 1, number: CN, carrier: 3011, tag: 'order-1' }], rejected: [] },
    });
  });

  it('v2.1: adds email and lang', () => {
    const env = makeAccount().v21('register', [{ number: CN, email: 'a@b.c', lang: 'de' }]);
    expect(env.data.accepted).toEqual([
      { origin: 1, number: CN, carrier: 3011, email: 'a@b.c', lang: 'de', tag: null },
    ]);
  });

  it('v1: {origin, number, carrier}', () => {
    const env = makeAccount().v1('register', [{ number: CN, carrier: 3011, tag: 't' }]);
    expect(env.data.accepted).toEqual([{ origin: 2, number: CN, carrier: 3011 }]);
  });

  it('v1 detects with auto_detection: true', () => {
    const env = makeAccount().v1('register', [{ number: CN, auto_detection: true }]);
    expect(env.data.accepted).toEqual([{ origin: 1, number: CN, carrier: 3011 }]);
  });

  it('detects a number registered without carrier (absent or 0) unless v2 detection is explicitly off', () => {
    const t = makeAccount();
    // v1 without carrier, whatever auto_detection says.
    expect(t.v1('register', [{ number: chinaPost(30) }]).data.accepted).toEqual([
      { origin: 1, number: chinaPost(30), carrier: 3011 },
    ]);
    expect(t.v1('register', [{ number: chinaPost(31), auto_detection: false }]).data.accepted[0]).toMatchObject({
      carrier: 3011,
    });
    expect(t.v1('register', [{ number: chinaPost(32), carrier: 0 }]).data.accepted[0]).toMatchObject({ carrier: 3011 });
    // v2 as clients that send every field with its zero value do: carrier 0 is a wrong code, so it is detected.
    for (const v of ['v2', 'v21'] as const) {
      const n = chinaPost(v === 'v2' ? 33 : 34);
      expect(t[v]('register', [{ number: n, carrier: 0, auto_detection: false }]).data.accepted[0]).toMatchObject({
        origin: 1,
        carrier: 3011,
      });
    }
    // No carrier field at all and detection off: nothing can name the carrier.
    expect(rejectedCode(t.v2('register', [{ number: chinaPost(35), auto_detection: false }]))).toBe(-18019903);
  });

  const origins: [string, Record<string, unknown>, number, number][] = [
    ['confident detection', { number: CN }, 1, 3011],
    ['passed code found correct', { number: CN, carrier: 3011 }, 2, 3011],
    ['passed code corrected', { number: YANWEN, carrier: 100002 }, 1, 190012],
    ['unknown passed code replaced by detection', { number: CN, carrier: 999999 }, 1, 3011],
    ['weak guess', { number: FEDEX_WEAK }, 3, 100003],
    ['digit string as carrier code', { number: CN, carrier: '3011' }, 2, 3011],
  ];
  it.each(origins)('%s', (_name, item, origin, carrier) => {
    const env = makeAccount().v2('register', [item]);
    expect(env.data.accepted[0]).toMatchObject({ origin, carrier });
  });

  it('numbers are stored trimmed and upper-cased', () => {
    const t = makeAccount();
    const env = t.v2('register', [{ number: ` ${CN.toLowerCase()} ` }]);
    expect(env.data.accepted[0].number).toBe(CN);
    expect(rejectedCode(t.v2('register', [{ number: CN }]))).toBe(-18019901);
  });

  it('v2 ignores the v2.1 fields; v2.1 stores them', () => {
    const t = makeAccount();
    const order = { order_no: 'SO-1', order_time: '2026-03-01', remark: 'r'.repeat(1001) };
    expect(t.v2('register', [{ number: CN, ...order }]).data.accepted).toHaveLength(1);
    t.v21('register', [
      { number: chinaPost(2), order_no: 'SO-2', order_time: '2026-03-01T08:00:00+01:00', remark: 'gift' },
    ]);
    const rec = t.v21('gettracklist', { number: chinaPost(2) }).data.accepted[0];
    expect(rec).toMatchObject({ order_no: 'SO-2', order_time: '2026-03-01T08:00:00+01:00', remark: 'gift' });
    // order_time is shown as the service writes times: ISO to the second, in the zone it was given in (else UTC).
    const given: [string, string][] = [
      ['2026-03-01', '2026-03-01T00:00:00Z'],
      ['2026-03-01 08:30', '2026-03-01T08:30:00Z'],
      ['2026-03-01T08:30:15.250-0300', '2026-03-01T08:30:15-03:00'],
      ['2026-03-01t08:30:00z', '2026-03-01T08:30:00Z'],
    ];
    for (const [i, [sent, shown]] of given.entries()) {
      t.v21('register', [{ number: chinaPost(10 + i), order_time: sent }]);
      expect(t.v21('gettracklist', { number: chinaPost(10 + i) }).data.accepted[0].order_time, sent).toBe(shown);
    }
    const first = t.v21('gettracklist', { number: CN }).data.accepted[0];
    expect(first).toMatchObject({ order_no: null, order_time: null, remark: null });
  });

  it('final_carrier on a postal carrier is kept', () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN, final_carrier: 21051 }]);
    expect(t.v2('gettracklist', {}).data.accepted[0].final_carrier).toBe(21051);
  });
});

describe('register: quota', () => {
  it('a duplicate is refused -18019901 and not charged', () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    const env = t.v2('register', [{ number: CN, tag: 'again' }]);
    expect(env.data.rejected).toEqual([
      {
        number: CN,
        carrier: 3011,
        tag: 'again',
        error: {
          code: -18019901,
          message: `The tracking number '${CN}' has been registered, don't need to repeat registration.`,
        },
      },
    ]);
    expect(t.v2('getquota', []).data).toMatchObject({ quota_used: 1, today_used: 1 });
  });

  it('registering the same two numbers twice uses two units, not four; after a deletion it is charged again', () => {
    const t = makeAccount();
    const two = [{ number: CN }, { number: chinaPost(2) }];
    expect(t.v2('register', two).data.accepted).toHaveLength(2);
    expect(t.v2('register', two).data.rejected.map((r: Json) => r.error.code)).toEqual([-18019901, -18019901]);
    expect(t.v2('getquota', []).data.quota_used).toBe(2);
    t.v2('deletetrack', [{ number: CN }]);
    expect(t.v2('register', two).data.accepted).toHaveLength(1);
    expect(t.v2('getquota', []).data.quota_used).toBe(3);
  });

  it('duplicates inside one request', () => {
    const t = makeAccount();
    const env = t.v2('register', [{ number: CN }, { number: CN }]);
    expect(env.data.accepted).toHaveLength(1);
    expect(env.data.rejected[0].error.code).toBe(-18019901);
    expect(t.v2('getquota', []).data.quota_used).toBe(1);
  });

  it('the same number under another carrier is a new record', () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    const env = t.v2('register', [{ number: CN, carrier: 21051 }]);
    expect(env.data.accepted[0]).toMatchObject({ origin: 2, carrier: 21051 });
    expect(t.v2('gettracklist', {}).page.data_total).toBe(2);
  });

  it('quota exhausted → -18019908 (a duplicate is still named as such: it would cost nothing)', () => {
    const t = makeAccount({ settings: { quotaTotal: 1 } });
    expect(t.v2('register', [{ number: CN }]).data.accepted).toHaveLength(1);
    expect(rejectedCode(t.v2('register', [{ number: chinaPost(2) }]))).toBe(-18019908);
    expect(rejectedCode(t.v2('register', [{ number: CN }]))).toBe(-18019901);
    expect(t.v2('getquota', []).data).toMatchObject({ quota_total: 1, quota_used: 1, quota_remain: 0 });
  });

  it('daily cap → -18019907, and today_used starts again at 00:00 UTC', () => {
    const t = makeAccount({ settings: { maxTrackDaily: 2 } });
    expect(t.v2('register', [{ number: chinaPost(1) }, { number: chinaPost(2) }]).data.accepted).toHaveLength(2);
    expect(rejectedCode(t.v2('register', [{ number: chinaPost(3) }]))).toBe(-18019907);
    expect(t.v2('getquota', []).data).toMatchObject({ today_used: 2, max_track_daily: 2 });
    // START is 10:00 UTC: 14 hours later is the next UTC day.
    t.setTime(START + 14 * 3600_000);
    expect(t.v2('getquota', []).data).toMatchObject({ today_used: 0, quota_used: 2 });
    expect(t.v2('register', [{ number: chinaPost(3) }]).data.accepted).toHaveLength(1);
  });

  it('lang: one unit at once, the second with the first result; both must be free', async () => {
    const t = makeAccount({ settings: { quotaTotal: 3 } });
    t.v2('register', [{ number: CN, lang: 'de' }]);
    expect(t.v2('getquota', []).data.quota_used).toBe(1);
    await t.advance(15_000);
    expect(t.v2('getquota', []).data.quota_used).toBe(2);
    // One unit left: a registration with lang needs two.
    expect(rejectedCode(t.v2('register', [{ number: chinaPost(2), lang: 'de' }]))).toBe(-18019908);
    expect(t.v2('register', [{ number: chinaPost(2) }]).data.accepted).toHaveLength(1);
  });

  it('getquota has the quota record; v1 has no getquota', () => {
    const t = makeAccount({ settings: { quotaTotal: 1100, maxTrackDaily: 10 } });
    t.v2('register', [{ number: CN }]);
    expect(t.v2('getquota', [])).toEqual({
      code: 0,
      data: {
        quota_total: 1100,
        quota_used: 1,
        quota_remain: 1099,
        today_used: 1,
        max_track_daily: 10,
        free_email_quota: 0,
        free_email_quotaused: 0,
      },
    });
    expect(t.v2('getquota', [{ x: 1 }]).code).toBe(-18010013);
    expect(t.v1('getquota', []).code).toBe(-18010013);
  });

  it('register after delete charges again', () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    t.v2('deletetrack', [{ number: CN }]);
    t.setTime(START + 2 * DAY);
    expect(t.v2('register', [{ number: CN }]).data.accepted).toHaveLength(1);
    expect(t.v2('getquota', []).data).toMatchObject({ quota_used: 2, today_used: 1 });
  });
});

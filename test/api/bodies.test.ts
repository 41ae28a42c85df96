import { describe, expect, it } from 'vitest';
import { unsupported, wireBody } from '../../src/api/request-body.js';
import { itemsPerRequest, unknownRegisterFields } from '@trk/service/operations/index.js';
import { UsageError } from '../../src/core/errors.js';

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('unsupported / itemsPerRequest', () => {
  it('v1 has no quota and no real-time operation', () => {
    expect(usage(() => unsupported('v1', 'getquota')).toLine()).toBe(
      'the v1 API has no quota operation: use --api-version v2',
    );
    expect(usage(() => unsupported('v1', 'getRealTimeTrackInfo')).toLine()).toBe(
      'the v1 API has no real-time operation: use --api-version v2',
    );
    expect(() => unsupported('v2', 'getquota')).not.toThrow();
    expect(() => unsupported('v2.1', 'getRealTimeTrackInfo')).not.toThrow();
    expect(() => wireBody('getquota', 'v1', undefined)).toThrow(UsageError);
    expect(wireBody('getquota', 'v2', undefined)).toEqual([]);
  });

  it('40 per request, 1 for real time and for v1 changeinfo', () => {
    expect(itemsPerRequest('v2', 'register')).toBe(40);
    expect(itemsPerRequest('v1', 'register')).toBe(40);
    expect(itemsPerRequest('v2', 'getRealTimeTrackInfo')).toBe(1);
    expect(itemsPerRequest('v1', 'changeinfo')).toBe(1);
    expect(itemsPerRequest('v2', 'changeinfo')).toBe(40);
    expect(itemsPerRequest('v2.1', 'changeinfo')).toBe(40);
  });
});

describe('registerBody', () => {
  it('v2: param as is, auto_detection true when no carrier is given', () => {
    expect(wireBody('register', 'v2', [{ number: 'RR123456789CN', param: 'US-10001', tag: 't', lang: 'en' }])).toEqual([
      { number: 'RR123456789CN', param: 'US-10001', tag: 't', lang: 'en', auto_detection: true },
    ]);
    expect(wireBody('register', 'v2', [{ number: 'RR123456789CN', carrier: 3011 }])).toEqual([
      { number: 'RR123456789CN', carrier: 3011 },
    ]);
    expect(wireBody('register', 'v2', [{ number: 'RR123456789CN', auto_detection: false }])).toEqual([
      { number: 'RR123456789CN', auto_detection: false },
    ]);
  });

  it('v1: extra_param, and auto_detection sent explicitly (v1 defaults to false)', () => {
    expect(
      wireBody('register', 'v1', [{ number: 'RR123456789CN', param: 'US-10001', final_carrier: 21051, tag: 'x' }]),
    ).toEqual([
      { number: 'RR123456789CN', extra_param: 'US-10001', final_carrier: 21051, tag: 'x', auto_detection: true },
    ]);
    expect(wireBody('register', 'v1', [{ number: 'RR123456789CN', carrier: 3011 }])).toEqual([
      { number: 'RR123456789CN', carrier: 3011 },
    ]);
  });

  it('refuses fields the version does not know', () => {
    expect(unknownRegisterFields('v1', { number: 'A12345', lang: 'en', email: 'a@b.c' })).toEqual(['lang', 'email']);
    expect(unknownRegisterFields('v2', { number: 'A12345', order_no: 'o1', remark: 'r' })).toEqual([
      'order_no',
      'remark',
    ]);
    expect(
      unknownRegisterFields('v2.1', { number: 'A12345', order_no: 'o1', order_time: '2026-01-01', remark: 'r' }),
    ).toEqual([]);
    expect(unknownRegisterFields('v2', { number: 'A12345', tag: undefined })).toEqual([]);
    const e = usage(() => wireBody('register', 'v2', [{ number: 'A12345', order_no: 'o1' }]));
    expect(e.toLine()).toContain('order_no');
    expect(e.toLine()).toContain('v2.1');
    expect(() => wireBody('register', 'v1', [{ number: 'A12345', lang: 'en' }])).toThrow(/lang/);
  });

  it('v2.1 carries order_no, order_time and remark', () => {
    expect(
      wireBody('register', 'v2.1', [
        { number: 'A12345', carrier: 3011, order_no: 'o1', order_time: '2026-01-01', remark: 'r' },
      ]),
    ).toEqual([{ number: 'A12345', carrier: 3011, order_no: 'o1', order_time: '2026-01-01', remark: 'r' }]);
  });
});

describe('numberCarrierBody', () => {
  it('keeps number and carrier, drops what is not set', () => {
    expect(wireBody('stoptrack', 'v2', [{ number: 'A12345' }, { number: 'B12345', carrier: 3011 }])).toEqual([
      { number: 'A12345' },
      { number: 'B12345', carrier: 3011 },
    ]);
    expect(wireBody('deletetrack', 'v2', [{ number: 'A12345' }])).toEqual([{ number: 'A12345' }]);
  });

  it('v1 deletetrack requires the carrier', () => {
    const e = usage(() => wireBody('deletetrack', 'v1', [{ number: 'A12345', carrier: 1 }, { number: 'B12345' }]));
    expect(e.message).toContain('B12345');
    expect(e.message).not.toContain('A12345');
    expect(e.toLine()).toContain('--carrier');
    expect(wireBody('deletetrack', 'v1', [{ number: 'A12345', carrier: 1 }])).toEqual([
      { number: 'A12345', carrier: 1 },
    ]);
    expect(wireBody('stoptrack', 'v1', [{ number: 'A12345' }])).toEqual([{ number: 'A12345' }]);
  });
});

describe('changeCarrierBody / changeInfoBody / realtimeBody', () => {
  it('changecarrier is the same in every version', () => {
    const items = [{ number: 'A12345', carrier_old: 1, carrier_new: 2 }];
    expect(wireBody('changecarrier', 'v1', items)).toEqual(items);
    expect(
      wireBody('changecarrier', 'v2', [{ number: 'A12345', final_carrier_new: 5, carrier_old: undefined }]),
    ).toEqual([{ number: 'A12345', final_carrier_new: 5 }]);
  });

  it('v2 changeinfo: an array with tag, param, lang', () => {
    expect(
      wireBody('changeinfo', 'v2', [{ number: 'A12345', carrier: 3011, items: { tag: 't', lang: 'en' } }]),
    ).toEqual([{ number: 'A12345', carrier: 3011, items: { tag: 't', lang: 'en' } }]);
  });

  it('v1 changeinfo: a single object, tag only', () => {
    expect(wireBody('changeinfo', 'v1', [{ number: 'A12345', carrier: 3011, items: { tag: 't' } }])).toEqual({
      number: 'A12345',
      carrier: 3011,
      items: { tag: 't' },
    });
    expect(usage(() => wireBody('changeinfo', 'v1', [{ number: 'A12345', items: { param: 'x' } }])).toLine()).toContain(
      '--param',
    );
    expect(
      usage(() => wireBody('changeinfo', 'v1', [{ number: 'A12345', items: { tag: 'x', lang: 'en' } }])).toLine(),
    ).toContain('--lang');
    expect(() =>
      wireBody('changeinfo', 'v1', [
        { number: 'A', items: {} },
        { number: 'B', items: {} },
      ]),
    ).toThrow(RangeError);
  });

  it('real time: one item, not in v1', () => {
    expect(wireBody('getRealTimeTrackInfo', 'v2', { number: 'A12345', carrier: 3011, cacheLevel: 1 })).toEqual([
      { number: 'A12345', carrier: 3011, cacheLevel: 1 },
    ]);
    expect(() => wireBody('getRealTimeTrackInfo', 'v1', { number: 'A12345' })).toThrow(UsageError);
  });
});

describe('trackListBody', () => {
  it('v2 and v2.1 take the filter as is', () => {
    const filter = { package_status: 'Delivered', order_by: 'RegisterTimeDesc', page_no: 2, push_status_code: 500 };
    expect(wireBody('gettracklist', 'v2', filter)).toEqual(filter);
    expect(wireBody('gettracklist', 'v2.1', { ...filter, number: undefined })).toEqual(filter);
  });

  it('v1 maps names and codes', () => {
    expect(
      wireBody('gettracklist', 'v1', {
        number: 'A12345,B12345',
        carrier: 3011,
        package_status: 'Delivered',
        tracking_status: 'Stopped',
        push_status: 'Failure',
        register_time_from: '2026-01-01T00:00:00Z',
        register_time_to: '2026-01-02T00:00:00Z',
        track_time_from: '2026-01-03T00:00:00Z',
        track_time_to: '2026-01-04T00:00:00Z',
        push_time_from: '2026-01-05T00:00:00Z',
        push_time_to: '2026-01-06T00:00:00Z',
        stop_track_time_from: '2026-01-07T00:00:00Z',
        stop_track_time_to: '2026-01-08T00:00:00Z',
        page_no: 3,
      }),
    ).toEqual({
      number: 'A12345,B12345',
      carrier: 3011,
      package_status: 40,
      tracking_state: 0,
      push_state: 2,
      register_time_from: '2026-01-01T00:00:00Z',
      register_time_to: '2026-01-02T00:00:00Z',
      tracking_time_from: '2026-01-03T00:00:00Z',
      tracking_time_to: '2026-01-04T00:00:00Z',
      push_time_from: '2026-01-05T00:00:00Z',
      push_time_to: '2026-01-06T00:00:00Z',
      stop_time_from: '2026-01-07T00:00:00Z',
      stop_time_to: '2026-01-08T00:00:00Z',
      page_no: 3,
    });
    expect(
      wireBody('gettracklist', 'v1', {
        package_status: 'OutForDelivery',
        tracking_status: 'Tracking',
        push_status: 'NotPushed',
      }),
    ).toEqual({
      package_status: 10,
      tracking_state: 1,
      push_state: 0,
    });
    expect(wireBody('gettracklist', 'v1', {})).toEqual({});
  });

  it('v1 refuses what it cannot filter by', () => {
    for (const f of [{ data_origin: 'Api' }, { push_status_code: 200 }, { order_by: 'PushTimeAsc' }]) {
      const e = usage(() => wireBody('gettracklist', 'v1', f));
      expect(e.message).toContain(Object.keys(f)[0]);
      expect(e.toLine()).toContain('--api-version v2');
    }
    expect(usage(() => wireBody('gettracklist', 'v1', { package_status: 'Lost' })).toLine()).toContain('Delivered');
  });
});

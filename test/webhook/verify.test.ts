import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compactJson, rawMember } from '../../src/webhook/raw-json.js';
import { detectVersion, signV1, signV2, signedV1Body, verifyV1, verifyV2 } from '../../src/webhook/verify.js';
import { fixtureBytes } from '../fixture-files.js';

const KEY = 'k3y-for-tests';
/** Computed here independently of the code under test. */
const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

const V2_BODY = JSON.stringify({
  event: 'TRACKING_UPDATED',
  data: {
    number: 'RR123456789CN',
    carrier: 3011,
    param: null,
    tag: 'café',
    track_info: { latest_status: { status: 'InTransit' } },
  },
});

describe('verifyV2', () => {
  const sign = sha(Buffer.concat([Buffer.from(V2_BODY), Buffer.from(`/${KEY}`)]));

  it('accepts the sha256 of the raw body, a slash and the key', () => {
    expect(verifyV2(V2_BODY, sign, KEY)).toBe(true);
    expect(verifyV2(Buffer.from(V2_BODY), sign, KEY)).toBe(true);
    expect(signV2(V2_BODY, KEY)).toBe(sign);
  });

  it('accepts the header in upper case or with surrounding spaces', () => {
    expect(verifyV2(V2_BODY, ` ${sign.toUpperCase()} `, KEY)).toBe(true);
  });

  it('refuses another key, a tampered body and an empty or malformed sign', () => {
    expect(verifyV2(V2_BODY, sign, 'other-key')).toBe(false);
    expect(verifyV2(V2_BODY.replace('RR123456789CN', 'RR123456789CM'), sign, KEY)).toBe(false);
    expect(verifyV2(V2_BODY, '', KEY)).toBe(false);
    expect(verifyV2(V2_BODY, `${sign}00`, KEY)).toBe(false);
    expect(verifyV2(V2_BODY, 'z'.repeat(64), KEY)).toBe(false);
  });

  it('refuses the same JSON with different whitespace: the raw bytes are what is signed', () => {
    const pretty = JSON.stringify(JSON.parse(V2_BODY), null, 2);
    expect(JSON.parse(pretty)).toEqual(JSON.parse(V2_BODY));
    expect(verifyV2(pretty, sign, KEY)).toBe(false);
    expect(verifyV2(`${V2_BODY}\n`, sign, KEY)).toBe(false);
  });

  it('hashes bytes, not re-encoded text: a body that is not valid UTF-8 still verifies over its bytes', () => {
    const raw = Buffer.concat([Buffer.from('{"event":"X","data":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const s = sha(Buffer.concat([raw, Buffer.from(`/${KEY}`)]));
    expect(verifyV2(raw, s, KEY)).toBe(true);
  });

  it('treats a sign that lost its leading zeros as the same hash', () => {
    let body = '';
    let s = '';
    for (let i = 0; ; i++) {
      body = `{"event":"TRACKING_STOPPED","data":{"number":"N${i}"}}`;
      s = sha(`${body}/${KEY}`);
      if (s.startsWith('0')) break;
    }
    expect(verifyV2(body, s.replace(/^0+/, ''), KEY)).toBe(true);
  });
});

describe('verifyV1', () => {
  const fixture = fixtureBytes('webhooks/v1-tracking-updated.json');
  const text = fixture.toString('utf8');

  it('re-serialising the fixture data with JSON.stringify reproduces the raw text exactly', () => {
    const raw = rawMember(text, 'data');
    expect(raw).toBeDefined();
    expect(raw).toBe(JSON.stringify(JSON.parse(text).data));
    expect(raw!.startsWith('{"number":"9214490221582737950192"')).toBe(true);
  });

  /** The captured push signed again with our own key, every other byte unchanged. */
  function resigned(body: string, key: string): string {
    const event = JSON.parse(body).event as string;
    const data = rawMember(body, 'data')!;
    return body.replace(/"sign":"[0-9a-f]+"/, `"sign":"${sha(`${event}/${data}/${key}`)}"`);
  }

  it('accepts the captured v1 push signed with our key', () => {
    const body = resigned(text, KEY);
    expect(body).not.toBe(text);
    expect(verifyV1(body, KEY)).toBe(true);
    expect(verifyV1(Buffer.from(body), KEY)).toBe(true);
    expect(verifyV1(JSON.parse(body), KEY)).toBe(true);
  });

  it('refuses the original push under a key it was not made with, and a tampered one', () => {
    expect(verifyV1(text, KEY)).toBe(false);
    const body = resigned(text, KEY);
    expect(verifyV1(body, 'another-key')).toBe(false);
    expect(verifyV1(body.replace('"e":10', '"e":40'), KEY)).toBe(false);
    expect(verifyV1(body.replace('TRACKING_UPDATED', 'TRACKING_STOPPED'), KEY)).toBe(false);
  });

  it('keeps number formatting and escapes as sent rather than re-serialising', () => {
    const data = '{"number":"AB123456789","w":1.50,"u":"a\\/b","big":12345678901234567890}';
    expect(JSON.stringify(JSON.parse(data))).not.toBe(data);
    const body = `{"event":"TRACKING_UPDATED","sign":"${sha(`TRACKING_UPDATED/${data}/${KEY}`)}","data":${data}}`;
    expect(verifyV1(body, KEY)).toBe(true);
  });

  it('uses the compact form of a pretty-printed body', () => {
    const data = { number: 'AB123456789', tag: 'x y', track: { e: 10, z0: null } };
    const sign = sha(`TRACKING_UPDATED/${JSON.stringify(data)}/${KEY}`);
    const pretty = JSON.stringify({ event: 'TRACKING_UPDATED', sign, data }, null, 2);
    expect(verifyV1(pretty, KEY)).toBe(true);
    // Spaces inside strings are data, not layout.
    const changed = pretty.replace('"x y"', '"x  y"');
    expect(verifyV1(changed, KEY)).toBe(false);
  });

  it('takes an explicit sign over the one in the body', () => {
    const body = resigned(text, KEY);
    const good = JSON.parse(body).sign as string;
    expect(verifyV1(text, KEY, good)).toBe(true);
    expect(verifyV1(body, KEY, '0'.repeat(64))).toBe(false);
  });

  it('refuses bodies without sign, event or JSON', () => {
    expect(verifyV1('{"event":"TRACKING_UPDATED","data":{}}', KEY)).toBe(false);
    expect(verifyV1('{"sign":"00","data":{}}', KEY)).toBe(false);
    expect(verifyV1('not json', KEY)).toBe(false);
  });

  it('signs bodies the way it verifies them', () => {
    const body = signedV1Body('TRACKING_STOPPED', { number: 'AB123456789', carrier: 3011, tag: '' }, KEY);
    expect(verifyV1(body, KEY)).toBe(true);
    expect(JSON.parse(body).sign).toBe(
      signV1('TRACKING_STOPPED', '{"number":"AB123456789","carrier":3011,"tag":""}', KEY),
    );
    expect(JSON.parse(body).sign).toBe(sha(`TRACKING_STOPPED/{"number":"AB123456789","carrier":3011,"tag":""}/${KEY}`));
  });
});

describe('detectVersion', () => {
  it('v1 when the body carries sign, v2 otherwise', () => {
    expect(detectVersion(fixtureBytes('webhooks/v1-tracking-updated.json'))).toBe('v1');
    expect(detectVersion(fixtureBytes('doc-v2/webhook_tracking_stopped.json'))).toBe('v2');
    expect(detectVersion({ event: 'X', data: {} })).toBe('v2');
    expect(detectVersion('[1,2]')).toBeUndefined();
    expect(detectVersion('nope')).toBeUndefined();
  });
});

describe('raw JSON reading', () => {
  it('finds a member with braces, quotes and escapes inside strings', () => {
    const text = ' { "a" : "x}\\"{" , "data" : { "s": "}]\\\\", "n": [1, {"b": null}] } , "z": true } ';
    expect(rawMember(text, 'data')).toBe('{ "s": "}]\\\\", "n": [1, {"b": null}] }');
    expect(rawMember(text, 'a')).toBe('"x}\\"{"');
    expect(rawMember(text, 'z')).toBe('true');
    expect(rawMember(text, 'missing')).toBeUndefined();
  });

  it('takes the last of duplicate members, as JSON.parse does', () => {
    expect(rawMember('{"data":1,"data":[2]}', 'data')).toBe('[2]');
  });

  it('gives up on malformed text and non-objects', () => {
    expect(rawMember('{"data": {"a": 1}', 'data')).toBeUndefined();
    expect(rawMember('{"data" 1}', 'data')).toBeUndefined();
    expect(rawMember('[{"data":1}]', 'data')).toBeUndefined();
    expect(rawMember('', 'data')).toBeUndefined();
  });

  it('compacts layout whitespace only', () => {
    expect(compactJson('{\n  "a b": [ 1.50 ,\t"c\\" d" ],\r\n  "e": { }\n}')).toBe('{"a b":[1.50,"c\\" d"],"e":{}}');
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyNotification } from '../../../src/webhook/listener/verification.js';
import { rawMember } from '../../../src/webhook/raw-json.js';
import { fixtureBytes } from '../../fixture-files.js';

const KEY = 'verification-key';
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const body = Buffer.from('{"event":"TRACKING_STOPPED","data":{"number":"RR1"}}');
const v2Sign = sha(Buffer.concat([body, Buffer.from(`/${KEY}`)]));

function v1(): Buffer {
  const text = fixtureBytes('webhooks/v1-tracking-updated.json').toString('utf8');
  return Buffer.from(
    text.replace(/"sign":"[0-9a-f]+"/, `"sign":"${sha(`TRACKING_UPDATED/${rawMember(text, 'data')}/${KEY}`)}"`),
  );
}

describe('verifyNotification', () => {
  it('a sign header means v2', () => {
    expect(verifyNotification(body, v2Sign, KEY)).toEqual({ version: 'v2', verified: true });
    expect(verifyNotification(body, [v2Sign], KEY)).toEqual({ version: 'v2', verified: true });
    expect(verifyNotification(body, '0'.repeat(64), KEY)).toEqual({
      version: 'v2',
      verified: false,
      problem: 'bad signature (sign header)',
    });
  });

  it('a body carrying sign means v1', () => {
    expect(verifyNotification(v1(), undefined, KEY)).toEqual({ version: 'v1', verified: true });
    const forged = Buffer.from(v1().toString().replace('"e":10', '"e":40'));
    expect(verifyNotification(forged, undefined, KEY)).toMatchObject({
      version: 'v1',
      verified: false,
      problem: 'bad signature (v1, sign in the body)',
    });
  });

  it('anything else is unsigned; without a key nothing verifies', () => {
    expect(verifyNotification(body, undefined, KEY)).toEqual({
      version: undefined,
      verified: false,
      problem: 'no signature',
    });
    expect(verifyNotification(Buffer.from('not json "sign"'), undefined, KEY).version).toBeUndefined();
    expect(verifyNotification(body, v2Sign, undefined)).toEqual({
      version: 'v2',
      verified: false,
      problem: 'no key to verify with',
    });
  });
});

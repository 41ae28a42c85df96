// The emulator signs webhooks with its own code (@trk/sandbox/account/webhook-body.ts), by the spec's rules; held
// here against the recorded v1 push and a hash computed in the test; trk's verifier reads them in trk's tests
// (test/webhook/emulator-signatures.test.ts), so that either side misreading the spec fails.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedWebhook } from '../src/account/webhook-body.js';
import { fixtureBytes } from '../../../test/fixture-files.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('webhook bodies and signs', () => {
  it('v1: the recorded push byte for byte, but for the sign, which is sha256(event/data/key)', () => {
    const recorded = fixtureBytes('webhooks/v1-tracking-updated.json').toString('utf8').trim();
    const { event, data } = JSON.parse(recorded) as { event: string; data: Record<string, unknown> };
    const { headers, body } = signedWebhook('v1', event, data, 'k1');
    expect(headers).toEqual({ 'content-type': 'application/json' });
    const sign = sha(`${event}/${JSON.stringify(data)}/k1`);
    expect(body).toBe(recorded.replace(/"sign":"[0-9a-f]{64}"/, `"sign":"${sign}"`));
  });

  it.each(['v2', 'v2.1'] as const)('%s: {event, data}, header sign = sha256(body/key)', (version) => {
    const data = { number: 'RR123456789CN', carrier: 3011 };
    const { headers, body } = signedWebhook(version, 'TRACKING_STOPPED', data, 'k1');
    expect(body).toBe('{"event":"TRACKING_STOPPED","data":{"number":"RR123456789CN","carrier":3011}}');
    expect(headers).toEqual({ 'content-type': 'application/json', sign: sha(`${body}/k1`) });
  });
});

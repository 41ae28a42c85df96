// The emulator signs notifications with its own code (@trk/sandbox's signedWebhook), trk verifies them with its own
// (src/webhook/verify.ts): two readings of the spec, held against each other here so that either misreading fails.

import { signedWebhook } from '@trk/sandbox/account/webhook-body.js';
import { describe, expect, it } from 'vitest';
import { verifyV1, verifyV2 } from '../../src/webhook/verify.js';
import { fixtureBytes } from '../fixture-files.js';

describe("the emulator's signs, verified by trk", () => {
  it('v1: the recorded push as the emulator signs it, with its key only', () => {
    const recorded = fixtureBytes('webhooks/v1-tracking-updated.json').toString('utf8').trim();
    const { event, data } = JSON.parse(recorded) as { event: string; data: Record<string, unknown> };
    const { body } = signedWebhook('v1', event, data, 'k1');
    expect(verifyV1(body, 'k1')).toBe(true);
    expect(verifyV1(body, 'k2')).toBe(false);
  });

  it.each(['v2', 'v2.1'] as const)('%s: the header sign of the body', (version) => {
    const { headers, body } = signedWebhook(
      version,
      'TRACKING_STOPPED',
      { number: 'RR123456789CN', carrier: 3011 },
      'k1',
    );
    expect(verifyV2(body, headers.sign!, 'k1')).toBe(true);
    expect(verifyV2(body, headers.sign!, 'k2')).toBe(false);
  });
});

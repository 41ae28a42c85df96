// The bodies `trk webhook trigger` makes: every sub-status of every version is a notification of the documented shape
// whose details read back as that status, signed so that the listener's verifier takes it; and STATUS, --sub-status
// and --event are checked before anything is made.
import { describe, expect, it } from 'vitest';
import { chooseStatus } from '../../src/commands/webhook/trigger-run.js';
import { UsageError } from '../../src/core/errors.js';
import { toDetailsView } from '@trk/service/records.js';
import { V1_PACKAGE_STATUS_CODE, mainStatusOf, subStatuses, type ApiVersion } from '@trk/service/vocabulary.js';
import { notificationProblem } from '@trk/service/webhook-body.js';
import { signedTrigger, type TriggerRequest } from '../../src/webhook/trigger-body.js';
import { verifyNotification } from '../../src/webhook/listener/verification.js';

const NOW = Date.parse('2026-06-10T12:00:00Z');
const KEY = 'trigger-key';

function request(version: ApiVersion, subStatus: string, event: TriggerRequest['event'] = 'TRACKING_UPDATED') {
  return {
    event,
    status: mainStatusOf(subStatus)!,
    subStatus,
    version,
    number: 'RR123456789CN',
    carrier: 3011,
    param: null,
    tag: 'order-7',
    provider: { name: 'China Post', homepage: null, country: 'CN' },
    now: NOW,
  } satisfies TriggerRequest;
}

describe('signedTrigger', () => {
  it.each(['v2', 'v2.1'] as const)('%s: every sub-status, of the shape the listener takes, read back as sent', (v) => {
    for (const sub of subStatuses(v)) {
      const { body, headers } = signedTrigger(request(v, sub), KEY);
      expect(verifyNotification(Buffer.from(body), headers.sign, KEY)).toEqual({ version: 'v2', verified: true });
      const parsed = JSON.parse(body);
      expect(notificationProblem(parsed, 'v2'), sub).toBeUndefined();
      const view = toDetailsView(parsed.data, v);
      expect([view.status, view.sub_status, view.tag, view.carrier]).toEqual([mainStatusOf(sub), sub, 'order-7', 3011]);
      // Only v2.1's events carry their sub-status; NotFound has none at all.
      const events = parsed.data.track_info.tracking.providers[0].events as { sub_status?: string }[];
      expect(events.length > 0).toBe(!sub.startsWith('NotFound'));
      if (events.length > 0) expect(events[0]!.sub_status).toBe(v === 'v2.1' ? sub : undefined);
      // The latest event is now, the delivery is known only for Delivered.
      if (events.length > 0) expect(view.latest_event?.time_utc).toBe('2026-06-10T12:00:00Z');
      expect(view.delivered_at !== null).toBe(sub === 'Delivered_Other');
    }
  });

  it('v1: the sign in the body, the track read back with its v1 status code', () => {
    for (const sub of subStatuses('v2')) {
      const { body, headers } = signedTrigger(request('v1', sub), KEY);
      expect(headers.sign).toBeUndefined();
      expect(verifyNotification(Buffer.from(body), undefined, KEY)).toEqual({ version: 'v1', verified: true });
      const parsed = JSON.parse(body);
      expect(notificationProblem(parsed, 'v1')).toBeUndefined();
      expect(parsed.data.track.e).toBe(V1_PACKAGE_STATUS_CODE[mainStatusOf(sub)!]);
      expect(toDetailsView(parsed.data, 'v1').carrier).toBe(3011);
    }
  });

  it('TRACKING_STOPPED names the parcel alone, as the service documents it', () => {
    const v2 = JSON.parse(signedTrigger(request('v2', 'InTransit_Other', 'TRACKING_STOPPED'), KEY).body);
    expect(v2).toEqual({
      event: 'TRACKING_STOPPED',
      data: { number: 'RR123456789CN', carrier: 3011, param: null, tag: 'order-7' },
    });
    const v1 = JSON.parse(signedTrigger(request('v1', 'InTransit_Other', 'TRACKING_STOPPED'), KEY).body);
    expect(v1.data).toEqual({ number: 'RR123456789CN', carrier: 3011, tag: 'order-7' });
  });

  it('tells the story up to the sub-status, oldest event first, a day apart', () => {
    const parsed = JSON.parse(signedTrigger(request('v2.1', 'Exception_Returning'), KEY).body);
    const events = parsed.data.track_info.tracking.providers[0].events as { sub_status: string; time_utc: string }[];
    expect(events.map((e) => e.sub_status)).toEqual([
      'Exception_Returning',
      'InTransit_Other',
      'InTransit_PickedUp',
      'InfoReceived',
    ]);
    expect(events.at(-1)!.time_utc).toBe('2026-06-07T12:00:00Z');
    const milestones = parsed.data.track_info.milestone as { key_stage: string; time_utc: string | null }[];
    expect(milestones.filter((m) => m.time_utc !== null).map((m) => m.key_stage)).toEqual([
      'InfoReceived',
      'PickedUp',
      'Returning',
    ]);
  });
});

describe('chooseStatus', () => {
  it('takes a main status or a sub-status in any spelling, and the sub-status of --sub-status', () => {
    expect(chooseStatus({ status: 'delivered' }, 'v2')).toEqual({
      event: 'TRACKING_UPDATED',
      status: 'Delivered',
      subStatus: 'Delivered_Other',
    });
    expect(chooseStatus({ status: 'out-for-delivery' }, 'v2').subStatus).toBe('OutForDelivery_Other');
    expect(chooseStatus({ status: 'deliveryfailure_invalidaddress' }, 'v2').status).toBe('DeliveryFailure');
    expect(chooseStatus({ status: 'InTransit', subStatus: 'InTransit_Arrival' }, 'v2').subStatus).toBe(
      'InTransit_Arrival',
    );
    expect(chooseStatus({ event: 'tracking_stopped' }, 'v2').event).toBe('TRACKING_STOPPED');
  });

  it.each([
    [{ status: 'Lost' }, 'v2', /^unknown status "Lost"$/],
    [{}, 'v2', /^no status to trigger$/],
    [{ status: 'Delivered', subStatus: 'Exception_Lost' }, 'v2', /^Exception_Lost is not a sub-status of Delivered/],
    [
      { status: 'InTransit_CustomsReleased' },
      'v2',
      /^InTransit_CustomsReleased is not a sub-status of InTransit in v2$/,
    ],
    [{ status: 'Delivered', event: 'TRACKING_STOPPED' }, 'v2', /carries no status/],
    [{ status: 'Delivered', event: 'PARCEL_EATEN' }, 'v2', /^unknown --event "PARCEL_EATEN"$/],
  ] as const)('refuses %j (exit 2)', (opts, version, message) => {
    let thrown: unknown;
    try {
      chooseStatus(opts, version);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).message).toMatch(message);
  });

  it('names the customs sub-statuses as v2.1 ones', () => {
    expect(() => chooseStatus({ status: 'InTransit_CustomsReleased' }, 'v2')).toThrow(
      expect.objectContaining({ hint: 'customs sub-statuses come with --api-version v2.1' }),
    );
    expect(chooseStatus({ status: 'InTransit_CustomsReleased' }, 'v2.1').subStatus).toBe('InTransit_CustomsReleased');
  });
});

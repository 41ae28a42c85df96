// The made-up parcel of `trk notify test`: every field a message shows filled, so that one test shows the message
// whole, and no customer's parcel is written to.

import type { NotifyMatch } from '../../store/notify-types.js';
import { iso } from './ledger.js';

const HOUR = 3_600_000;

export function sampleMatch(status: string, email: string | null, now: number): NotifyMatch {
  const sub = status === 'InfoReceived' ? 'InfoReceived' : `${status}_Other`;
  return {
    parcel: {
      number: 'RR123456789CN',
      carrier: 3011,
      tag: 'order-1001',
      order_no: '#1001 (test)',
      email,
      package_status: status,
      sub_status: sub,
      latest_event: 'Arrived at the delivery office (a test message: no parcel moved)',
      latest_event_time: iso(now - 2 * HOUR),
      eta_from: iso(now + 24 * HOUR).slice(0, 10),
      eta_to: iso(now + 72 * HOUR).slice(0, 10),
      register_time: iso(now - 96 * HOUR),
    },
    change: {
      id: null,
      key: 'test',
      from_status: 'InTransit',
      to_status: status,
      to_sub_status: sub,
      event_time: iso(now - 2 * HOUR),
      detected_at: iso(now),
    },
  };
}

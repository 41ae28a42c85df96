import { describe, expect, it } from 'vitest';
import { NO_COLOR } from '../../../src/io/io.js';
import {
  bodyLine,
  eventLabel,
  fileStamp,
  humanLine,
  isoSeconds,
  jsonLine,
} from '../../../src/webhook/listener/lines.js';
import type { ReceivedEvent } from '../../../src/webhook/listener/types.js';
import { summarizeEvent } from '../../../src/webhook/summary.js';

function event(body: unknown, extra: Partial<ReceivedEvent> = {}): ReceivedEvent {
  const raw = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body, null, 2));
  return {
    receivedAt: Date.parse('2025-03-01T12:00:00.250Z'),
    path: '/hook',
    headers: {},
    request: { method: 'POST', url: '/hook', httpVersion: '1.1', rawHeaders: [] },
    raw,
    body: typeof body === 'string' ? undefined : body,
    version: 'v2',
    verified: true,
    accepted: true,
    status: 200,
    summary: summarizeEvent(body),
    ...extra,
  };
}

const updated = {
  event: 'TRACKING_UPDATED',
  data: {
    number: 'RR123456789CN',
    carrier: 3011,
    track_info: {
      latest_status: { status: 'InTransit', sub_status: 'InTransit_Departure' },
      latest_event: { time_iso: '2025-02-27T08:15:00+08:00', description: 'Departed\u001b[31m', location: 'Shenzhen' },
    },
  },
};

describe('lines', () => {
  const opts = {
    color: NO_COLOR,
    columns: undefined,
    carrierName: (c: number) => (c === 3011 ? 'China Post' : undefined),
  };

  it('a human line: time, event, number, carrier, status, latest event; text from the network cleaned', () => {
    expect(humanLine(event(updated), opts)).toBe(
      '2025-03-01T12:00:00Z  TRACKING_UPDATED  RR123456789CN  3011 China Post  InTransit_Departure  ' +
        '2025-02-27T08:15:00+08:00  Shenzhen: Departed',
    );
  });

  it('says what was odd, and fits a terminal', () => {
    const line = humanLine(event(updated, { verified: false, status: 500 }), opts);
    expect(line.endsWith('(not verified)  (answered 500)')).toBe(true);
    const cut = humanLine(event(updated), { ...opts, columns: 40 });
    expect([...cut]).toHaveLength(39);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('a JSON line for machines, the body on one line for --print', () => {
    expect(JSON.parse(jsonLine(event(updated)))).toMatchObject({
      event: 'TRACKING_UPDATED',
      number: 'RR123456789CN',
      received_at: '2025-03-01T12:00:00.250Z',
      verified: true,
    });
    expect(bodyLine(event(updated))).toBe(JSON.stringify(updated));
    expect(bodyLine(event('not json'))).toBeUndefined();
  });

  it('times and labels', () => {
    expect(isoSeconds(Date.parse('2025-03-01T12:00:00.250Z'))).toBe('2025-03-01T12:00:00Z');
    expect(fileStamp(Date.parse('2025-03-01T12:00:00.250Z'))).toBe('20250301T120000.250Z');
    expect(eventLabel(event(updated))).toBe('TRACKING_UPDATED RR123456789CN');
  });
});

import { describe, expect, it } from 'vitest';
import { summarizeEvent } from '../../src/webhook/summary.js';
import { fixtureBytes } from '../fixture-files.js';

const json = (name: string) => JSON.parse(fixtureBytes(name).toString('utf8'));
const firstAccepted = (name: string) => {
  const f = json(name);
  return (f.data ?? f).accepted[0];
};

describe('summarizeEvent', () => {
  it('reads a v2 TRACKING_UPDATED built from a documented gettrackinfo item', () => {
    const data = firstAccepted('doc-v2/gettrackinfo_exception_returning.json');
    expect(summarizeEvent({ event: 'TRACKING_UPDATED', data })).toEqual({
      event: 'TRACKING_UPDATED',
      number: 'AA555666777BR',
      carrier: 2151,
      status: 'Exception',
      sub_status: 'Exception_Returning',
      latest_event: {
        time: '2026-06-27T11:15:00-03:00',
        location: data.track_info.latest_event.location,
        description: 'Em devolução ao remetente',
      },
    });
  });

  it("falls back to the carrier's raw time when the service could not convert it", () => {
    const data = firstAccepted('doc-v2/gettrackinfo_correios_2151.json');
    expect(summarizeEvent({ event: 'TRACKING_UPDATED', data }).latest_event).toEqual({
      time: '2026-06-30 14:23:00',
      location: 'RECIFE, PE',
      description: 'Objeto entregue ao destinatário',
    });
  });

  it('reads the documented TRACKING_STOPPED body', () => {
    expect(summarizeEvent(json('doc-v2/webhook_tracking_stopped.json'))).toEqual({
      event: 'TRACKING_STOPPED',
      number: 'AA123456789BR',
      carrier: 2151,
      status: null,
      sub_status: null,
      latest_event: null,
    });
  });

  it('reads the captured v1 push: carrier from w1, status from e, latest event from z0', () => {
    expect(summarizeEvent(json('webhooks/v1-tracking-updated.json'))).toEqual({
      event: 'TRACKING_UPDATED',
      number: '9214490221582737950192',
      carrier: 21051,
      status: 'InTransit',
      sub_status: null,
      latest_event: {
        time: '2021-07-17 14:35',
        location: 'ANN ARBOR, MI 48104',
        description: expect.stringMatching(/^Shipping Label Created/),
      },
    });
  });

  it('shows an unknown v1 status code raw', () => {
    const item = json('real-v1/gettrackinfo_with_unknown_status_response.json').data.accepted.find(
      (a: { track: { e: number } }) => a.track.e === 5000,
    );
    expect(item).toBeDefined();
    const s = summarizeEvent({ event: 'TRACKING_UPDATED', data: { number: item.number, tag: '', track: item.track } });
    expect(s.status).toBe('5000');
  });

  it('never throws on odd shapes', () => {
    for (const body of [
      undefined,
      null,
      'x',
      42,
      [],
      { data: [] },
      { event: 5, data: { number: 7, carrier: '0021051', track_info: 'x' } },
    ]) {
      expect(() => summarizeEvent(body)).not.toThrow();
    }
    expect(summarizeEvent({ event: 'E', data: { number: 'N', carrier: '0021051' } }).carrier).toBe(21051);
    expect(summarizeEvent({ data: { carrier: 'DHL' } }).carrier).toBeNull();
  });
});

// `trk info N -o text`: a parcel in a few plain lines for a reply to a customer.
import { describe, expect, it } from 'vitest';
import { toDetailsView } from '@trk/service/records.js';
import { renderSummary } from '../../src/output/summary.js';
import { accepted, V2_DETAILS } from './fixtures.js';

const summary = (name: string, opts = {}) => renderSummary(toDetailsView(accepted(name)[0], 'v2'), opts);

describe('renderSummary', () => {
  it('in transit: status in words, the last event with its local time and place, the expected delivery', () => {
    expect(summary(V2_DETAILS[2])).toBe(
      [
        'Tracking number YT2616912345678901 (Yanwen)',
        'Status: In transit — arrived at destination port',
        'Last event: 2026-06-29 21:05 +08:00, LOS ANGELES, US: Arrived at destination country port',
        'Expected delivery: between 2026-07-08 and 2026-07-12',
        '',
      ].join('\n'),
    );
  });

  it('delivered: when, instead of an estimate', () => {
    const text = summary(V2_DETAILS[0]);
    expect(text).toContain('Status: Delivered\n');
    expect(text).toContain('Delivered: 2026-06-30 14:23\n');
    expect(text).not.toContain('Expected');
  });

  it('being returned: the exception in words', () => {
    expect(summary(V2_DETAILS[1])).toContain('Status: Exception — being returned to the sender\n');
  });

  it('no colour, no escape sequences, no codes: plain text to paste', () => {
    for (const name of V2_DETAILS) {
      const text = summary(name);
      expect(text).not.toMatch(/\x1b/);
      expect(text).not.toMatch(/_Other|InTransit|-1801/);
    }
  });

  it('a number the service has no result for yet says so', () => {
    const view = toDetailsView({ number: 'RR123456789CN', carrier: 3011, track_info: null }, 'v2');
    expect(renderSummary(view, { carrierName: () => 'China Post' })).toBe(
      'Tracking number RR123456789CN (China Post)\nStatus: no tracking information yet\n',
    );
  });
});

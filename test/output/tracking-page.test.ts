import { Chalk } from 'chalk';
import { beforeAll, describe, expect, it } from 'vitest';
import { subStatuses } from '@trk/service/vocabulary.js';
import { toDetailsView } from '@trk/service/records.js';
import { SUB_STATUS_WORDS, statusLine } from '../../src/output/status-words.js';
import { eventTimeText, milestoneStrip, renderTrackingPage, wrapText } from '../../src/output/tracking-page.js';
import { accepted, V2_DETAILS } from './fixtures.js';
import { loadTextWidths } from '../../src/output/width.js';

const plain = new Chalk({ level: 0 });
const NOW = Date.parse('2026-07-01T12:00:00Z');
const opts = { now: NOW, width: 80 };

function page(
  item: unknown,
  version: 'v1' | 'v2' | 'v2.1' = 'v2',
  extra: Partial<Parameters<typeof renderTrackingPage>[2]> = {},
) {
  return renderTrackingPage(toDetailsView(item, version), plain, { ...opts, ...extra });
}

/** Positions of the given texts in the page; each must be present. */
function positions(text: string, parts: string[]): number[] {
  return parts.map((p) => {
    const i = text.indexOf(p);
    expect(i, `"${p}" on the page`).toBeGreaterThanOrEqual(0);
    return i;
  });
}

function ascending(xs: number[]): boolean {
  return xs.every((x, i) => i === 0 || xs[i - 1]! < x);
}

// Widths as a terminal draws them, as for a command laying out text for people (src/cli.ts loads them).
beforeAll(loadTextWidths);

describe('status words', () => {
  it('has words for all 30 sub-statuses', () => {
    const all = subStatuses('v2.1');
    expect(all).toHaveLength(30);
    for (const s of all) expect(SUB_STATUS_WORDS[s], s).toBeTruthy();
  });

  it('reads like a tracking page, unknown values raw', () => {
    expect(statusLine('InTransit', 'InTransit_Arrival')).toBe('In transit — arrived at destination port');
    expect(statusLine('Delivered', 'Delivered_Other')).toBe('Delivered');
    expect(statusLine('InTransit', 'InTransit_Teleported')).toBe('In transit — InTransit_Teleported');
    expect(statusLine('Hovering', null)).toBe('Hovering');
  });
});

describe('renderTrackingPage (v2 fixtures)', () => {
  it('Correios, delivered: heading, status, milestones with times, events newest first with translations', () => {
    const text = page(accepted(V2_DETAILS[0])[0]);
    expect(text.split('\n')[0]).toBe('AA123456789BR  ·  2151 Correios  ·  tag order-1042');
    expect(text.split('\n')[1]).toBe('Delivered');
    expect(text).toMatch(/● Picked up\s+2026-06-25 10:12 -03:00/);
    expect(text).toMatch(/● Out for delivery\s+2026-06-28 08:40 -03:00/);
    // time_iso null: the carrier's raw time is shown.
    expect(text).toMatch(/● Delivered\s+2026-06-30 14:23\n/);
    expect(text).toMatch(/○ Departed\s+not reported/);
    expect(text).toMatch(/Route\s+SAO PAULO, SP, 01000-000, BR → RECIFE, PE, 50000-000, BR/);
    expect(text).toMatch(/Days\s+6 after order · 5 in transit/);
    const [e1, e2, e3] = positions(text, [
      'Objeto entregue ao destinatário',
      'Objeto saiu para entrega',
      'Objeto postado',
    ]);
    expect(ascending([e1!, e2!, e3!])).toBe(true);
    expect(text).toContain('Object delivered to the recipient');
    expect(text).toContain('2026-06-30 14:23  RECIFE, PE  Correios');
    // Milestones come before the events.
    expect(text.indexOf('Progress')).toBeLessThan(text.indexOf('Events (3, newest first)'));
  });

  it('Exception/Returning: sub-status and its description in words, Returning shown because it occurred', () => {
    const text = page(accepted(V2_DETAILS[1])[0]);
    expect(text).toContain('Exception — being returned to the sender');
    expect(text).toContain('Package is being returned to the sender.');
    expect(text).toMatch(/● Returning\s+2026-06-27 11:15 -03:00/);
    expect(text).not.toContain('Returned');
    // A return is not progress: the forward stages are pending, not "not reported".
    expect(text).not.toContain('not reported');
    expect(text).toMatch(/last update (3 days|4 days|\d+ h) ago/);
  });

  it(
    'Yanwen, in transit: milestones from events and status, estimate with source, unknown sub-status ' + 'tolerated',
    () => {
      const text = page(accepted(V2_DETAILS[2])[0]);
      expect(text).toContain('In transit — arrived at destination port');
      const strip = ['○ Info received', '● Picked up', '● Departed', '● Arrived', '○ Out for delivery', '○ Delivered'];
      expect(ascending(positions(text, strip))).toBe(true);
      expect(text).not.toContain('Returning');
      expect(text).not.toContain('Available for pickup');
      expect(text).toMatch(/Expected\s+2026-07-08 – 2026-07-12 \(estimated by the service\)/);
      expect(text).toContain('Route     CN → US');
      const events = text.slice(text.indexOf('Events (3, newest first)'));
      expect(
        ascending(positions(events, ['2026-06-29 21:05 +08:00', '2026-06-26 16:30 +08:00', '2026-06-24 09:00 +08:00'])),
      ).toBe(true);
      expect(
        ascending(positions(events, ['Arrived at destination country port', 'Hypothetical status', 'Picked up'])),
      ).toBe(true);
      expect(events).toContain('LOS ANGELES, US  Yanwen');
    },
  );

  it('an estimate in the past is flagged overdue unless delivered', () => {
    const text = renderTrackingPage(toDetailsView(accepted(V2_DETAILS[2])[0], 'v2'), plain, {
      now: Date.parse('2026-08-01T00:00:00Z'),
      width: 80,
    });
    expect(text).toContain('overdue');
    expect(page(accepted(V2_DETAILS[0])[0])).not.toContain('overdue');
  });

  it('AvailableForPickup appears only when it occurs', () => {
    const item = structuredClone(accepted(V2_DETAILS[2])[0]) as {
      track_info: { latest_status: Record<string, string> };
    };
    item.track_info.latest_status = {
      status: 'AvailableForPickup',
      sub_status: 'AvailableForPickup_Other',
      sub_status_descr: '',
    };
    const text = page(item);
    expect(text).toContain('Available for pickup');
    expect(ascending(positions(text, ['● Arrived', '● Available for pickup', '○ Out for delivery']))).toBe(true);
  });

  it('colours the status and marks done/pending milestones when colour is on', () => {
    const c = new Chalk({ level: 1 });
    const text = renderTrackingPage(toDetailsView(accepted(V2_DETAILS[0])[0], 'v2'), c, opts);
    expect(text).toContain('\x1b[32m'); // Delivered green
    expect(text).toContain('\x1b[2m'); // pending stages dim
  });

  it('v2.1 customs statuses are highlighted', () => {
    const item = structuredClone(accepted(V2_DETAILS[2])[0]) as {
      track_info: {
        latest_status: Record<string, string | null>;
        tracking: { providers: { events: { sub_status: string }[] }[] };
      };
    };
    item.track_info.latest_status = {
      status: 'InTransit',
      sub_status: 'InTransit_CustomsProcessing',
      sub_status_descr: null,
    };
    item.track_info.tracking.providers[0]!.events[0]!.sub_status = 'InTransit_CustomsProcessing';
    item.track_info.tracking.providers[0]!.events[1]!.sub_status = 'InTransit_Departure';
    const text = page(item, 'v2.1');
    // Other per-event sub-statuses in words at the end of the event's first line; the customs one has its own line.
    const heads = text.split('\n').filter((l) => /^ {2}\d{4}-/.test(l));
    expect(heads[1]).toMatch(/ \(left the origin port\)$/);
    expect(heads[0]).not.toMatch(/\)$/);
    expect(text).toContain('In transit — in customs');
    expect(text).toMatch(/Customs\s+in customs\s+2026-06-29 21:05 \+08:00/);
    expect(text).toContain('customs: in customs');
    const coloured = renderTrackingPage(toDetailsView(item, 'v2.1'), new Chalk({ level: 1 }), opts);
    expect(coloured).toContain('\x1b[33m'); // yellow
  });

  it('postal shipments: events name both providers when both report them', () => {
    const item = structuredClone(accepted(V2_DETAILS[0])[0]) as {
      track_info: { tracking: { providers: { provider: { key: number; name: string | null }; events: unknown[] }[] } };
    };
    const dest = item.track_info.tracking.providers[0]!;
    const origin = structuredClone(dest);
    origin.provider = { ...origin.provider, key: 3011, name: null };
    origin.events = [dest.events[2]];
    item.track_info.tracking.providers.push(origin);
    const text = page(item, 'v2', { carrierName: (k) => (k === 3011 ? 'China Post' : undefined) });
    expect(text).toContain('SAO PAULO, SP  Correios + 3011 China Post');
  });

  it('sanitises everything from the service', () => {
    const item = structuredClone(accepted(V2_DETAILS[0])[0]) as {
      tag: string;
      track_info: { tracking: { providers: { events: { description: string; location: string }[] }[] } };
    };
    item.tag = 'x\x1b]0;title\x07y';
    const ev = item.track_info.tracking.providers[0]!.events[0]!;
    ev.description = 'Delivered \x1b[2J\x1b]8;;https://evil.example/\x1b\\here\x1b]8;;\x1b\\ \u202eevil\x9b1m';
    ev.location = 'REC\x1b[31mIFE\nPE';
    const text = page(item);
    expect(text).not.toMatch(/[\x1b\x9b\u202e]/);
    expect(text).not.toContain('evil.example');
    expect(text).toContain('tag xy');
    expect(text).toContain('Delivered here evil');
    expect(text).toContain('RECIFE PE');
  });

  it('wraps long descriptions to the width', () => {
    const item = structuredClone(accepted(V2_DETAILS[0])[0]) as {
      track_info: { tracking: { providers: { events: { description: string }[] }[] } };
    };
    item.track_info.tracking.providers[0]!.events[0]!.description = 'lorem ipsum '.repeat(20);
    const text = page(item, 'v2', { width: 50 });
    for (const l of text.split('\n')) expect(l.length).toBeLessThanOrEqual(50);
    const evLines = text.split('\n').filter((l) => l.includes('lorem'));
    expect(evLines.length).toBeGreaterThan(1);
    for (const l of evLines) expect(l.length).toBeLessThanOrEqual(50);
  });

  it('keeps the heading and the route within the width, breaking between parts', () => {
    const text = page(accepted(V2_DETAILS[0])[0], 'v2', { width: 46 });
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['AA123456789BR  ·  2151 Correios', 'tag order-1042']);
    expect(text).toMatch(/Route {5}SAO PAULO, SP, 01000-000, BR →\n {10}RECIFE, PE, 50000-000, BR\n/);
    // Event headings (time, place, carrier) are left whole; everything else fits.
    for (const l of lines.filter((x) => !/^ {2}\d{4}-/.test(x))) expect(l.length).toBeLessThanOrEqual(46);
  });

  it('says so when there is no result yet', () => {
    const text = page({ number: 'AB12345', carrier: 3011, param: null, tag: null, track_info: null });
    expect(text).toContain('No tracking result yet.');
    expect(text).not.toContain('Progress');
  });
});

describe('renderTrackingPage (v1)', () => {
  it('numeric status, events newest first, carriers by code and name, no milestones', () => {
    const item = accepted('real-v1/doc-gettrackinfo-example.json')[0];
    const text = page(item, 'v1', {
      carrierName: (k) => (k === 3011 ? 'China Post' : k === 18031 ? 'La Poste' : undefined),
    });
    expect(text.split('\n')[0]).toBe('RM101474005CN  ·  3011 China Post  ·  last mile 18031 La Poste');
    expect(text.split('\n')[1]).toBe('In transit');
    expect(text).not.toContain('Progress');
    expect(ascending(positions(text, ['2015-05-31 00:00', '2015-05-13 14:47']))).toBe(true);
    expect(text).toContain('Distribué ANDORRE LA VIEILLE (09).');
    expect(text).toContain('电子信息已收到');
    expect(text).toMatch(/2015-05-31 00:00 {2}18031 La Poste/);
  });

  it('unknown package status code shown raw', () => {
    const items = accepted('real-v1/gettrackinfo_with_unknown_status_response.json');
    const text = page(items[2], 'v1');
    expect(text).toContain('5000');
    expect(text.split('\n')[1]).toBe('Status 5000 (unknown status code)');
    expect(ascending(positions(text, ['2022-03-08 01:41  Milano, Italy', '2022-03-07 22:06']))).toBe(true);
  });

  it('works out no "last update ... ago" from event times without a zone (the carrier\'s wall clock)', () => {
    const track = (a: string) => ({
      w1: 3011,
      w2: 0,
      b: 301,
      c: 0,
      e: 10,
      z0: { a, c: 'X', d: '', z: 'Seen' },
      z1: [{ a, c: 'X', d: '', z: 'Seen' }],
      z2: [],
    });
    const text = page({ number: 'RR123456789CN', track: track('2026-07-01 02:00') }, 'v1');
    expect(text).toContain('2026-07-01 02:00  X');
    expect(text).not.toMatch(/last update/);
  });

  it('event times that are not times are kept as given', () => {
    const text = page(
      {
        number: 'RR123456789CN',
        track: {
          w1: 3011,
          w2: 0,
          b: 301,
          c: 0,
          e: 10,
          z0: null,
          z1: [
            { a: 'sometime Tuesday', c: 'X', d: '', z: 'Odd' },
            { a: '', c: '', d: '', z: 'No time' },
          ],
          z2: [],
        },
      },
      'v1',
    );
    expect(text).toContain('sometime Tuesday  X');
    expect(text).toMatch(/time unknown\s+3011\n\s+No time/);
  });
});

describe('helpers', () => {
  it('eventTimeText prefers time_iso as local wall time, then raw, then UTC', () => {
    expect(
      eventTimeText({ time_iso: '2026-06-29T21:05:00+08:00', time_utc: '2026-06-29T13:05:00Z', time_raw: null }),
    ).toBe('2026-06-29 21:05 +08:00');
    expect(eventTimeText({ time_iso: null, time_utc: null, time_raw: '2026-06-30 14:23:00 -03:00' })).toBe(
      '2026-06-30 14:23 -03:00',
    );
    expect(eventTimeText({ time_iso: '30/06/2026 14h23', time_utc: null, time_raw: null })).toBe('30/06/2026 14h23');
    expect(eventTimeText({ time_iso: null, time_utc: '2026-06-29T13:05:00Z', time_raw: null })).toBe(
      '2026-06-29 13:05 UTC',
    );
  });

  it('wrapText splits on spaces and breaks words longer than a line', () => {
    expect(wrapText('aaa bbb ccc dd', 10)).toEqual(['aaa bbb', 'ccc dd']);
    expect(wrapText('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    // What is left of a split word takes the next words while they fit.
    expect(wrapText(`${'x'.repeat(13)} ab cd efgh`, 10)).toEqual(['x'.repeat(10), 'xxx ab cd', 'efgh']);
    // Wide characters count two cells, and a character outside the BMP is never cut in half.
    expect(wrapText('漢字漢字漢字漢字', 10)).toEqual(['漢字漢字漢', '字漢字']);
    expect(wrapText('😀'.repeat(7), 10)).toEqual(['😀'.repeat(5), '😀'.repeat(2)]);
  });

  it('milestoneStrip: six stages, skipped before the furthest, pending after', () => {
    const strip = milestoneStrip(toDetailsView(accepted(V2_DETAILS[2])[0], 'v2'));
    expect(strip.map((s) => `${s.stage}:${s.state}`)).toEqual([
      'InfoReceived:skipped',
      'PickedUp:done',
      'Departure:done',
      'Arrival:done',
      'OutForDelivery:pending',
      'Delivered:pending',
    ]);
  });
});

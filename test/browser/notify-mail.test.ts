// The HTML part of trk notify's messages as a person sees it: a customer's mail and a team's digest in headless
// Chromium at a phone's width (390 px) and a desktop's (800 px). Nothing wider than the window (no sideways
// scrolling), the words the mail must carry (order number, carrier by name, status in words, the latest news, the
// expected delivery, the tracking link), every matched parcel a row of the digest. The screenshots go to
// test-results/ (a test artefact); with TRK_DOCS_PICTURES=1 the phone's are written to docs/ for docs/notify.md.
// Skipped, saying why, where no Chromium is installed.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestLine, digestMessage, parcelMessage } from '../../src/mirror/notify/messages.js';
import { parseTarget, type Rule } from '../../src/mirror/notify/rules.js';
import { sampleMatch } from '../../src/mirror/notify/sample.js';
import { ROOT } from '../e2e/helpers.js';
import { chromiumMissing, withPage } from './chromium.mjs';

const missing = chromiumMissing();
const ARTEFACTS = path.join(ROOT, 'test-results');
const NOW = Date.parse('2026-11-20T09:00:00Z');
const CARRIERS: Record<number, string> = { 3011: 'China Post', 100002: 'UPS', 21051: 'USPS' };
const ctx = {
  carrierName: (code: number) => CARRIERS[code] ?? String(code),
  trackingUrl: 'https://shop.example/track/{number}',
  now: NOW,
};

function rule(name: string, to: string, digest = false): Rule {
  return {
    id: 1,
    name,
    createdAt: '2026-11-01T00:00:00.000Z',
    firstChange: 0,
    lastChange: 0,
    lastRunAt: null,
    to,
    target: parseTarget(to),
    ...(digest ? { digest } : {}),
  };
}

/** A parcel of the digest: the sample parcel with its own number, order, customer, carrier and status. */
function parcel(n: number, status: string, carrier: number, email: string, daysQuiet: number) {
  const m = sampleMatch(status, email, NOW);
  m.parcel.number = `LZ${String(448_002_311 + n).padStart(9, '0')}US`;
  m.parcel.order_no = `#${1040 + n}`;
  m.parcel.carrier = carrier;
  m.parcel.latest_event_time = new Date(NOW - daysQuiet * 86_400_000).toISOString();
  return m;
}

const customerMail = (() => {
  const m = sampleMatch('OutForDelivery', 'ann.lee@example.com', NOW);
  m.parcel.order_no = '#1042';
  m.parcel.latest_event = 'Out for delivery from the Springfield delivery office';
  return parcelMessage(rule('customers', 'customer'), m, ctx);
})();

const digest = (() => {
  const r = rule('trouble', 'mailto:ops@example.com', true);
  const lines = [
    parcel(1, 'Exception', 100002, 'marguerite.delacroix-whitfield@example.com', 6),
    parcel(2, 'DeliveryFailure', 21051, 'sam@example.com', 2),
    parcel(3, 'Exception', 3011, 'noor@example.org', 11),
  ].map((m) => digestLine(r, m, ctx));
  return digestMessage(r, lines);
})();

/** What the page measures of itself (run in the browser as written: the tests' types have no DOM). */
const MEASURE = `(() => ({
  view: document.documentElement.clientWidth,
  scrollWidth: document.documentElement.scrollWidth,
  text: document.body.innerText,
  links: [...document.querySelectorAll('a')].map((a) => a.getAttribute('href')),
  rows: document.querySelectorAll('tr').length,
}))()`;

interface Measured {
  view: number;
  scrollWidth: number;
  text: string;
  links: string[];
  rows: number;
}

async function shown(name: string, html: string, width: number): Promise<Measured> {
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-mail-'));
  const file = path.join(dir, `${name}.html`);
  writeFileSync(file, html);
  return withPage(
    file,
    async (page, seen) => {
      const m = (await page.evaluate(MEASURE)) as Measured;
      expect(seen.problems).toEqual([]);
      mkdirSync(ARTEFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTEFACTS, `notify-${name}-${width}.png`), fullPage: true });
      if (process.env.TRK_DOCS_PICTURES === '1' && width === 390) {
        await page.screenshot({ path: path.join(ROOT, 'docs', `notify-${name}.png`), fullPage: true });
      }
      return m;
    },
    { width, height: 640 },
  );
}

describe.skipIf(missing !== undefined)("trk notify's mails in a browser, at 390 and 800 px", () => {
  it.each([390, 800])("a customer's mail at %i px: all it must say, nothing wider than the window", async (width) => {
    const m = await shown('mail', customerMail.html, width);
    expect(m.scrollWidth).toBeLessThanOrEqual(m.view);
    for (const words of ['#1042', 'China Post', 'Out for delivery', 'Springfield delivery office', 'Expected delivery'])
      expect(m.text).toContain(words);
    expect(m.text).not.toContain('OutForDelivery');
    expect(m.links).toEqual(['https://shop.example/track/RR123456789CN']);
  });

  it.each([390, 800])(
    'a digest at %i px: a row for each parcel, long addresses wrapped, not scrolled',
    async (width) => {
      const m = await shown('digest', digest.html, width);
      expect(m.scrollWidth).toBeLessThanOrEqual(m.view);
      // The heading row and one a parcel.
      expect(m.rows).toBe(4);
      for (const words of [
        '#1041',
        '#1042',
        '#1043',
        'UPS',
        'USPS',
        'China Post',
        'Delivery failed',
        'sam@example.com',
      ])
        expect(m.text).toContain(words);
    },
  );
});

if (missing) describe('notify mails in a browser', () => it.skip(missing, () => {}));

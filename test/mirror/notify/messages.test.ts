// The messages people read and the templates that replace them: statuses in words, the plain-text part within 72
// columns whatever the texts, the HTML part escaped, placeholders checked when a rule is added.

import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { digestLine, digestMessage, parcelMessage } from '../../../src/mirror/notify/messages.js';
import { parseTarget, type Rule } from '../../../src/mirror/notify/rules.js';
import { sampleMatch } from '../../../src/mirror/notify/sample.js';
import { checkTemplate } from '../../../src/mirror/notify/template.js';

const NOW = Date.parse('2026-06-10T12:00:00Z');
const ctx = { carrierName: () => 'China Post', trackingUrl: 'https://shop.example/t/{number}?x=1', now: NOW };

function rule(to: string, extra: Partial<Rule> = {}): Rule {
  return {
    id: 1,
    name: 'r',
    createdAt: '2026-06-01T00:00:00.000Z',
    firstChange: 0,
    lastChange: 0,
    lastRunAt: null,
    to,
    target: parseTarget(to),
    ...extra,
  };
}

const within72 = (text: string) => text.split('\n').filter((l) => l.length > 72);

describe('a customer mail', () => {
  const m = sampleMatch('DeliveryFailure', 'ann@example.com', NOW);
  m.change.to_sub_status = 'DeliveryFailure_InvalidAddress';
  m.parcel.latest_event = `The parcel could not be delivered <b>because</b> ${'the address was incomplete '.repeat(8)}`;

  it('names the order, the carrier, the status in words, the news, the window and the link', () => {
    const msg = parcelMessage(rule('customer'), m, ctx);
    expect(msg.subject).toBe('Your order #1001 (test): Delivery failed');
    expect(msg.text).toContain('Here is news of your order #1001 (test).');
    expect(msg.text).toContain('Status:             Delivery failed — address invalid\n');
    expect(msg.text).toContain('Carrier:            China Post\n');
    expect(msg.text).toMatch(/Expected delivery: {2}2026-06-11 to 2026-06-13/);
    expect(msg.text).toContain('Follow your parcel: https://shop.example/t/RR123456789CN?x=1');
    expect(msg.text).not.toContain('DeliveryFailure_InvalidAddress');
    expect(msg.text).not.toContain('Customer:');
  });

  it('keeps the plain-text part within 72 columns and escapes the HTML part', () => {
    const msg = parcelMessage(rule('customer'), m, ctx);
    expect(within72(msg.text)).toEqual([]);
    expect(msg.html).toContain('&lt;b&gt;because&lt;/b&gt;');
    expect(msg.html).not.toContain('<b>because');
    expect(msg.html).toContain('<a href="https://shop.example/t/RR123456789CN?x=1">');
  });

  it("tells the team the customer and the days without news; a chat gets text and Discord's content", () => {
    const msg = parcelMessage(rule('https://hooks.example/x'), m, ctx);
    expect(msg.subject).toBe('[r] #1001 (test): Delivery failed');
    expect(msg.text).toContain('Customer:           ann@example.com');
    expect(msg.text).toContain('Days without news:  0');
    expect(msg.payload.text).toBe(msg.text.trim());
    expect(msg.payload.content).toBe(msg.payload.text);
    expect((msg.payload.change as { to_status: string }).to_status).toBe('DeliveryFailure');
  });
});

describe('a digest', () => {
  it('lists every parcel with order, customer, carrier, status and days without news, within 72 columns', () => {
    const r = rule('mailto:ops@example.com', { digest: true });
    const lines = Array.from({ length: 3 }, (_, i) => {
      const m = sampleMatch('Exception', `a-very-long-customer-address-number-${i}@customers.example.com`, NOW);
      m.parcel.order_no = `#20${i}`;
      m.parcel.latest_event_time = new Date(NOW - (i + 2) * 86_400_000).toISOString();
      return digestLine(r, m, ctx);
    });
    const msg = digestMessage(r, lines);
    expect(msg.subject).toBe('[r] 3 parcels');
    for (let i = 0; i < 3; i++) {
      expect(msg.text).toContain(`#20${i} · a-very-long-customer-address-number-${i}@customers.example.com`);
      expect(msg.text).toContain(`${i + 2} days without news`);
      expect(msg.html).toContain(`<td>#20${i}</td>`);
    }
    expect(msg.text).toContain('China Post · Exception — problem reported by the carrier');
    expect(within72(msg.text)).toEqual([]);
    expect((msg.payload.parcels as unknown[]).length).toBe(3);
  });
});

describe('templates', () => {
  it('fills the placeholders and takes the subject from the first line', () => {
    const t = 'Subject: {{order}} is {{ status }}\n\nHi, {{order}} ({{number}}) with {{carrier}}: {{link}}\n';
    checkTemplate(t, false);
    const msg = parcelMessage(rule('customer', { template: t }), sampleMatch('Delivered', 'a@b.example', NOW), ctx);
    expect(msg.subject).toBe('#1001 (test) is Delivered');
    expect(msg.text).toBe(
      // Wrapped at 72 columns, between words.
      'Hi, #1001 (test) (RR123456789CN) with China Post:\nhttps://shop.example/t/RR123456789CN?x=1\n',
    );
    expect(msg.html).toContain('<a href="https://shop.example/t/RR123456789CN?x=1">');
  });

  it('refuses a placeholder it does not fill, with exit 2, naming those it does', () => {
    const refused = (t: string, digest: boolean) => {
      try {
        checkTemplate(t, digest);
      } catch (err) {
        return err as UsageError;
      }
      throw new Error('not refused');
    };
    const e = refused('Your {{ordr}}', false);
    expect(e).toBeInstanceOf(UsageError);
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe('the template has an unknown placeholder {{ordr}}');
    expect(refused('{{parcels}}', false).message).toMatch(/{{parcels}}/);
    expect(refused('{{order}}', true).hint).toMatch(/{{parcels}}.*a digest template/);
    expect(() => checkTemplate('{{count}} parcels:\n{{parcels}}', true)).not.toThrow();
  });
});

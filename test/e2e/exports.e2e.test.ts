// Shop exports as shops write them (test/fixtures/exports/, see its README) imported by trk with no flag but -f,
// against the emulator on 127.0.0.1, whose carrier list trk reads by name: each registers the right numbers under
// the right carriers, once each, and exits 0.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../fixture-files.js';
import { startEmulator, trk, type Emulator } from './helpers.js';

const EXPORTS = fixturePath('exports');

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  await emu.close();
});

/** number → carrier the emulator holds for the numbers of `numbers`. */
function registered(numbers: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of emu.sandbox.account.store.values()) if (numbers.includes(r.number)) out[r.number] = r.carrier;
  return out;
}

const CASES: [file: string, expected: Record<string, number>, notes: RegExp[]][] = [
  [
    'shopify-fulfillments.csv',
    {
      '1Z999AA10123456784': 100002, // UPS
      '9400100000000000000000': 21051, // USPS, printed with spaces
      '123456789012': 100003, // FedEx
      '1234567890': 100001, // DHL Express
      RR123456785CA: 3041, // Canada Post
      '1Z999AA10123456791': 100002, // "Other": detected by the service, never "Mothership"
    },
    [
      /^2 repeated rows sent once$/m,
      /^2 rows named no carrier \("Other"\): sent without one, for the service to detect$/m,
      /shopify-fulfillments\.csv: Name \(order_no\) not sent: API v2\.1 takes it \(--api-version v2\.1, or trk config/,
    ],
  ],
  [
    'woocommerce-orders.csv',
    {
      '9205500000000000000001': 21051,
      RR123456785GB: 11031, // Royal Mail
      RR123456785AU: 1151, // Australia Post
      '123456789013': 100003, // "Fedex"
      '1Z999AA10123456792': 100002, // "N/A": detected
    },
    [
      /written with spaces or dots/,
      /: Order ID \(order_no\), Order Number \(order_no\) not sent: API v2\.1 takes them/,
    ],
  ],
  [
    'shipstation-shipments.csv',
    {
      '9400100000000000000003': 21051, // Stamps.com prints USPS labels
      '1Z999AA10123456793': 100002,
      '123456789014': 100003,
      '9400100000000000000004': 21051,
    },
    [/^1 repeated row sent once$/m],
  ],
  [
    'german-excel.csv',
    {
      JJD000000000000000001: 7041, // DHL Paket
      H1001234567890123: 100018, // Hermes
      '01501234567890': 100007, // DPD (DE)
      JJD000000000000000002: 7041,
      RR123456785DE: 7041, // "-": detected, the German post's S10
    },
    [/^1 row named no carrier \("-"\)/m],
  ],
  [
    'french-excel.csv',
    {
      '6A12345678901': 6051, // Colissimo: La Poste
      XJ12345678901: 100273, // Chronopost
      '12345678': 100304, // Mondial Relay
      RR123456785FR: 6051, // "Autre": detected
    },
    [/^1 row named no carrier \("Autre"\)/m],
  ],
];

describe('shop exports import with -f alone', () => {
  it("on v2.1 send order numbers and e-mails for trk find: Shopify's Name, WooCommerce's Order Number", async () => {
    const v21 = await startEmulator();
    try {
      const env = { ...v21.env, TRK_RES_URL: v21.sandbox.url, TRK_API_VERSION: 'v2.1' };
      for (const file of ['shopify-fulfillments.csv', 'woocommerce-orders.csv']) {
        const r = await trk(['register', '-f', path.join(EXPORTS, file)], { env });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).not.toMatch(/not sent/);
        if (file.startsWith('woo')) expect(r.stderr).toMatch(/: Order ID not read: Order Number gives order_no/);
      }
      const orders = Object.fromEntries(
        [...v21.sandbox.account.store.values()].map((rec) => [rec.number, [rec.orderNo, rec.email]]),
      );
      expect(orders).toMatchObject({
        '1Z999AA10123456784': ['#1001', 'anna.berg@example.com'],
        '9205500000000000000001': ['2041', 'grace@example.org'],
      });
    } finally {
      await v21.close();
    }
  });

  it.each(CASES)('%s', async (file, expected, notes) => {
    const env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
    const r = await trk(['register', '-f', path.join(EXPORTS, file), '-v'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(registered(Object.keys(expected))).toEqual(expected);
    for (const note of notes) expect(r.stderr).toMatch(note);
    expect(r.stderr).toMatch(
      new RegExp(`columns separated by ${file.includes('excel') ? 'semicolons' : 'commas'} \\(from the first line\\)`),
    );
  });

  it(
    'the same export with --carrier-map, and an alias in the profile, name carriers the shop spells its ' + 'own way',
    async () => {
      const env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
      const dir = path.join(emu.env.HOME!, 'shop');
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(dir, { recursive: true });
      const csv = path.join(dir, 'dhl.csv');
      writeFileSync(csv, 'Sendungsnummer;Versanddienstleister\nJJD000000000000000091;DHL\n00340434161234567892;Post\n');
      const refused = await trk(['register', '-f', csv], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /line 2: carrier: carrier "DHL" is part of carriers' names: DHL ACTIVETRACING \(100216\)/,
      );
      expect(refused.stderr).toMatch(/line 3: carrier: carrier "Post" is part of carriers' names/);
      const map = path.join(dir, 'carriers.csv');
      writeFileSync(map, 'name,code\nDHL,7041\n');
      expect((await trk(['config', 'set', 'carrier-alias.Post', '7044', '--create'], { env })).code).toBe(0);
      const aliases = await trk(['carriers', '--aliases', '--carrier-map', map], { env });
      expect(aliases.stdout).toMatch(/^Post\t7044\t\S*.*\tprofile "default"$/m);
      expect(aliases.stdout).toMatch(new RegExp(`^DHL\\t7041\\t.*\\t${map.replace(/[/.]/g, '\\$&')}$`, 'm'));
      const ok = await trk(['register', '-f', csv, '--carrier-map', map], { env });
      expect(ok.code, ok.stderr).toBe(0);
      expect(registered(['JJD000000000000000091', '00340434161234567892'])).toEqual({
        JJD000000000000000091: 7041,
        '00340434161234567892': 7044,
      });
    },
  );
});

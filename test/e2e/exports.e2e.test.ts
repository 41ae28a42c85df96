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
  [
    'shopify-orders.csv',
    {
      '1Z999AA10123456801': 100002, // "UPS Ground", two line items
      '9400100000000000000801': 21051, // "USPS Priority Mail"
      RR123456801GB: 11031, // "Royal Mail Tracked 48"
      '808012345601': 100005, // GLS, with the param made of Shipping Country and Shipping Zip
      RR123456802DE: 7044, // "Deutsche Post": Deutsche Post Mail
      SF1234567801: 100012, // SF Express, with the last 4 digits of Shipping Phone
      '1234567801': 100001, // "DHL Express Worldwide", a partly shipped order
    },
    [
      /^2 orders without a tracking number passed over$/m,
      /^3 repeated rows sent once$/m,
      /^carrier "UPS Ground" read as UPS \(100002\), its service level left out$/m,
      /^carrier "Deutsche Post" read as Deutsche Post Mail \(7044\), the one carrier so named$/m,
      /^3 rows sent with the param their carriers need, made from Shipping Country, Shipping Zip and Shipping Phone$/m,
      /: ignored .*: not used by trk register$/m,
    ],
  ],
  [
    'export-app-orders.csv',
    { JJD000000000000003001: 7041, '3SABCD0000003003': 14041 },
    [/^1 order without a tracking number passed over$/m, /^1 repeated row sent once$/m],
  ],
  [
    'woocommerce-custom-provider.csv',
    { H01HYA0000002101: 100331, RR123456803GB: 11031, JD0000000000002104: 100017 },
    [/^1 order without a tracking number passed over$/m],
  ],
  [
    'sendcloud-parcels.csv',
    {
      '3SABCD0000004001': 14041, // "PostNL Standard 0-23kg" beside PostNL
      JJD000000000000004002: 7041, // "DHL" names several: its service "DHL Paket 0-31.5kg" says which
      '808012344003': 100005, // GLS, with the param made of Country and Postal code
    },
    [
      /^1 order without a tracking number passed over$/m,
      /^1 row sent with the param its carrier needs, made from Country and Postal code$/m,
    ],
  ],
];

/** number → param the emulator holds. */
function params(numbers: readonly string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const r of emu.sandbox.account.store.values()) if (numbers.includes(r.number)) out[r.number] = r.param;
  return out;
}

/** A file written into the shop's folder of the test's home. */
async function shopFile(name: string, text: string): Promise<string> {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const dir = path.join(emu.env.HOME!, 'shop');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

async function fixtureText(name: string): Promise<string> {
  const { readFileSync } = await import('node:fs');
  return readFileSync(path.join(EXPORTS, name), 'utf8');
}

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
    expect(r.stderr).not.toMatch(/set aside|rejected/);
    expect(r.stdout).toBe('');
    expect(registered(Object.keys(expected))).toEqual(expected);
    for (const note of notes) expect(r.stderr).toMatch(note);
    expect(r.stderr).toMatch(
      new RegExp(`columns separated by ${file.includes('excel') ? 'semicolons' : 'commas'} \\(from the first line\\)`),
    );
  });

  it('sends the param a carrier needs from the postal code, country and phone columns', async () => {
    const env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
    for (const file of ['shopify-orders.csv', 'sendcloud-parcels.csv'])
      expect((await trk(['register', '-f', path.join(EXPORTS, file)], { env })).code).toBe(0);
    expect(params(['808012345601', 'SF1234567801', '808012344003', '1Z999AA10123456801'])).toEqual({
      '808012345601': 'GB-M1 1AE',
      SF1234567801: '1234',
      '808012344003': 'BE-1000',
      '1Z999AA10123456801': null,
    });
  });

  it('a rejection for a missing param names the columns that give it', async () => {
    const env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
    const file = await shopFile('gls.csv', 'number,carrier\n808012349901,GLS\n');
    const r = await trk(['register', '-f', file], { env });
    expect(r.code, r.stderr).toBe(1); // every row failed
    expect(r.stderr).toMatch(/-18010018 extra field required: country code and postal code: 1\n\s+pass --param .*/);
    expect(r.stderr).toMatch(/columns Postal Code and Country \(or Shipping Zip and Shipping Country\)/);
  });

  it('an order of several line items, its tags on the first row only, sends its tags once with --column', async () => {
    const env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
    const refused = await trk(['register', '-f', path.join(EXPORTS, 'shopify-orders.csv'), '--dry-run'], { env });
    expect(refused.stderr).not.toMatch(/unknown column/);
    const file = await shopFile(
      'tags.csv',
      (await fixtureText('shopify-orders.csv')).replace(/1Z999AA10123456801/g, '1Z999AA10123456811'),
    );
    const r = await trk(['register', '-f', file, '--column', 'Tags=tag'], { env });
    expect(r.code, r.stderr).toBe(0);
    const tags = [...emu.sandbox.account.store.values()].filter((rec) => rec.number === '1Z999AA10123456811');
    expect(tags.map((rec) => rec.tag)).toEqual(['vip, wholesale']);
  });

  it('a real conflict between two rows of one number names the column and both values', async () => {
    const env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
    const file = await shopFile(
      'conflict.csv',
      'Name,Tracking Number,Tracking Company,Tags,Lineitem name\n#1,1Z999AA10123456821,UPS,red,a\n' +
        '#1,1Z999AA10123456821,UPS,,b\n#2,1Z999AA10123456821,UPS,blue,c\n',
    );
    const r = await trk(['register', '-f', file, '--column', 'Tags=tag'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /line 4: same number and carrier as line 2, with tag "blue" where it has "red" \(keep one of the two rows\)/,
    );
    expect(r.stderr).not.toMatch(/line 3/);
  });

  it('a file whose number column is empty throughout is refused; --ignore-column passes a column over', async () => {
    const env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
    const empty = await shopFile('empty.csv', 'Name,Tracking Number,Lineitem name\n#1,,a\n#2,,b\n');
    const r = await trk(['register', '-f', empty], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no row has a tracking number \(column "Tracking Number" is empty throughout\)/);
    const typo = await shopFile('typo.csv', 'number,carier\n1Z999AA10123456831,x\n');
    expect((await trk(['register', '-f', typo], { env })).stderr).toMatch(/unknown column carier \(carrier\?\)/);
    for (const flags of [
      ['--ignore-column', 'carier'],
      ['--column', 'carier=-'],
    ]) {
      const ok = await trk(['register', '-f', typo, '--again', ...flags], { env });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).not.toMatch(/carier/);
    }
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
      // The way out, once per name refused.
      expect(refused.stderr).toMatch(
        /; pass the code, or name it once: trk config set carrier-alias\.DHL CODE \(or --carrier-map/,
      );
      expect(refused.stderr.match(/carrier-alias\.DHL/g)).toHaveLength(1);
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

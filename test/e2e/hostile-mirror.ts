// A mirror whose every text a person reads was written by someone hostile: tags, order numbers, e-mails and remarks
// registered through the emulator with markup that would load a beacon, SQL, LIKE's wildcards and terminal escape
// sequences; a carrier list whose carrier names carry the same; and a signed notification, stored by
// `trk webhook listen --store`, whose tag, sub-status, descriptions, places and provider names do. The tests of
// the report page (test/browser/), of the terminal and of the offline searches read it.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { signV2 } from '../../src/webhook/verify.js';
import { startReferenceServer, type ReferenceServer } from '../carriers/reference-server.js';
import type { StoreKind } from '../store/kinds.js';
import { startEmulator, trk, trkRunning, type Emulator } from './helpers.js';
import { HOUR, mirrorEnv, START, sync } from './mirror-helpers.js';

/** Terminal sequences: the clipboard written (OSC 52), the window's title, the screen cleared, a hidden link. */
export const ESCAPES = [
  '\u001b]52;c;cHduZWQ=\u0007',
  '\u001b]0;owned\u0007',
  '\u001b[2J\u001b[H',
  '\u001b]8;;http://127.0.0.1:9/\u001b\\',
  '\u009b31m',
];

/** The parts of a hostile text the terminal must not get: every escape sequence's bytes, and what OSC carries. */
export const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|cHduZWQ=|owned/;

/** Markup that loads `beacon` or runs script when a page takes it for HTML. */
export function markup(beacon: string): string[] {
  return [
    `<script>fetch(${JSON.stringify(`${beacon}?script`)})</script>`,
    `<img src=${beacon}?img>`,
    `"><svg onload=fetch('${beacon}?svg')>`,
    `'><iframe src=${beacon}?iframe></iframe>`,
  ];
}

export const SQL = "'; DROP TABLE records; --";

export interface HostileParcel {
  number: string;
  tag: string;
  order_no: string;
  email: string;
  remark: string;
}

export interface HostileMirror {
  emu: Emulator;
  env: NodeJS.ProcessEnv;
  /** The parcels registered, with what they were registered with. */
  parcels: HostileParcel[];
  /** The number only the notification told of. */
  notified: string;
  /** Texts of the notification by what they are (tag, sub-status, description, location, provider...). */
  notifiedTexts: Record<string, string>;
  /** The name the carrier list gives carrier 3011. */
  carrierName: string;
  close(): Promise<void>;
}

/** The notification of `number`: an exception long ago, every text of it `hostile`. */
function hostileNotification(number: string, hostile: (what: string) => string) {
  const time = '2026-05-20T08:00:00Z';
  const event = {
    time_iso: time,
    time_utc: time,
    time_raw: { date: '2026-05-20', time: '08:00:00', timezone: '+00:00' },
    description: hostile('description'),
    description_translation: { lang: 'en', description: hostile('translation') },
    location: hostile('location'),
    stage: null,
    sub_status: 'Exception_Other',
    address: { country: 'CN', state: null, city: hostile('city'), street: null, postal_code: null },
  };
  return {
    event: 'TRACKING_UPDATED',
    data: {
      number,
      carrier: 3011,
      param: null,
      tag: hostile('tag'),
      track_info: {
        latest_status: { status: 'Exception', sub_status: hostile('sub-status'), sub_status_descr: hostile('descr') },
        latest_event: event,
        time_metrics: {
          days_after_order: 12,
          days_of_transit: 12,
          days_of_transit_done: 0,
          days_after_last_update: 12,
        },
        milestone: [],
        misc_info: { service_type: hostile('service'), local_provider: hostile('local provider') },
        tracking: {
          providers_hash: 1,
          providers: [
            {
              provider: { key: 3011, name: hostile('provider'), alias: hostile('alias'), country: 'CN' },
              service_type: hostile('provider service'),
              latest_sync_status: 'Success',
              latest_sync_time: time,
              events_hash: 1,
              events: [event],
            },
          ],
        },
      },
    },
  };
}

/**
 * Registers five parcels (three hostile, two plain), syncs them into a new mirror of `kind`, and stores a signed
 * notification of a sixth through `trk webhook listen --store`. `beacon`: the address the markup would load.
 */
export async function hostileMirror(kind: StoreKind, beacon: string): Promise<HostileMirror> {
  const [tags, escapes] = [markup(beacon), ESCAPES];
  const carrierName = `China Post ${tags[1]}${escapes[0]}${SQL}`;
  const reference: ReferenceServer = await startReferenceServer();
  const emu = await startEmulator({ speed: 0, start: START });
  try {
    const carriers = JSON.parse(String(reference.bodies['apicarrier.all.json'])) as { key: number; _name: string }[];
    for (const c of carriers) if (c.key === 3011) c._name = carrierName;
    reference.bodies['apicarrier.all.json'] = JSON.stringify(carriers);
    const env = await mirrorEnv(emu, kind, { TRK_RES_URL: reference.url, TRK_PAGER: '' });
    // The carrier list, cached as "trk carriers" keeps it: every table names the carriers from there.
    expect((await trk(['carriers', '3011'], { env })).code).toBe(0);

    const parcels: HostileParcel[] = [
      {
        number: 'RH000000001CN',
        tag: tags[0]!,
        order_no: SQL,
        email: `${tags[2]}@example.com`,
        remark: `${escapes[0]}remark one${escapes[2]}`,
      },
      { number: 'RH000000002CN', tag: tags[1]!, order_no: '%20 off', email: 'first_last@example.com', remark: 'x' },
      {
        number: 'RH000000003CN',
        tag: `${escapes[1]}tag three${escapes[3]}`,
        order_no: `${escapes[2]}#3${escapes[4]}`,
        email: `_${tags[3]}@example.com`,
        remark: `${SQL} 100% _`,
      },
      { number: 'RH000000004CN', tag: 'plain-4', order_no: '#10004', email: 'c4@example.com', remark: 'plain' },
      { number: 'RH000000005CN', tag: 'plain-5', order_no: '#10005', email: 'c5@example.com', remark: 'plain' },
    ];
    const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const rows = parcels.map((p) => [p.number, p.tag, p.order_no, p.email, p.remark].map(quote).join(','));
    const file = path.join(String(env.HOME), 'hostile.csv');
    writeFileSync(file, `number,tag,order_no,email,remark\n${rows.join('\n')}\n`);
    const registered = await trk(['register', '-f', file, '-q'], { env });
    expect(registered.code, registered.stderr).toBe(0);
    await emu.sandbox.advance(2 * 24 * HOUR);
    await sync(env);

    const notifiedTexts: Record<string, string> = {};
    const hostile = (what: string) => {
      const i = Object.keys(notifiedTexts).length;
      const text = `${what} ${tags[i % tags.length]} ${SQL} ${escapes[i % escapes.length]}100% end`;
      notifiedTexts[what] = text;
      return text;
    };
    const notified = 'RZ000000006CN';
    const body = JSON.stringify(hostileNotification(notified, hostile));
    const listener = trkRunning(['webhook', 'listen', '--port', '0', '--store'], { env });
    try {
      const url = (await listener.printed(/Listening on (http:\/\/\S+\/hook)/))[1]!;
      await listener.printed(/storing them in the mirror/);
      const headers = { 'content-type': 'application/json', sign: signV2(body, String(env.TRK_API_KEY)) };
      expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(200);
    } finally {
      listener.interrupt();
    }
    expect((await listener.done).code).toBe(0);
    return {
      emu,
      env,
      parcels,
      notified,
      notifiedTexts,
      carrierName,
      close: async () => {
        await emu.close();
        await reference.close();
      },
    };
  } catch (err) {
    await emu.close();
    await reference.close();
    throw err;
  }
}

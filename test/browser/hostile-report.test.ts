// `trk report --html` of a mirror whose texts were written by someone hostile (test/e2e/hostile-mirror.ts): markup
// that would load a beacon or run script in order numbers, tags, e-mails, carrier names, a stored notification's
// event texts and sub-status. Opened in headless Chromium with the network on, the page must load nothing (the
// beacon, a server of this test on 127.0.0.1, gets no request), hold no element the texts would have made, and
// show them as text. The mirror in a SQLite file and in PostgreSQL; skipped, saying why, without Chromium.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trk } from '../e2e/helpers.js';
import { hostileMirror, SQL } from '../e2e/hostile-mirror.js';
import { STORE_KINDS } from '../store/kinds.js';
import { chromiumMissing, withPage } from './chromium.mjs';

const missing = chromiumMissing();
if (missing) console.warn(missing);

/** A server on 127.0.0.1 that answers and counts every request: what a page must never reach. */
async function startBeacon() {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/beacon`;
  return { url, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.skipIf(missing !== undefined).each(STORE_KINDS)('the report page of hostile texts ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  it('loads nothing, injects no element and shows the texts as written', async () => {
    const beacon = await startBeacon();
    const m = await hostileMirror(kind, beacon.url);
    try {
      const page = path.join(String(m.env.HOME), 'report.html');
      const r = await trk(['report', '--html', page], { env: m.env });
      expect(r.code, r.stderr).toBe(0);
      await withPage(
        page,
        async (p, seen) => {
          // Markup would have made these; the page's own charts are SVG drawn when it was written, with no handler.
          const injected = {
            elements: await p.$$eval('img, iframe, object, embed, [onload], [onerror], [src]', (els) => els.length),
            beaconScripts: await p.$$eval('script', (ss) => ss.filter((s) => s.textContent?.includes('beacon')).length),
          };
          expect(injected).toEqual({ elements: 0, beaconScripts: 0 });
          const cells = async (table: string) =>
            p.$$eval(`#${table} tbody td`, (tds) => tds.map((td) => td.textContent ?? ''));
          const stuck = (await cells('stuck')).join('\n');
          const trouble = (await cells('trouble')).join('\n');
          const groups = (await cells('groups')).join('\n');
          // As written (the terminal's escape sequences are characters of no harm to a page).
          expect(stuck).toContain(m.notifiedTexts.description);
          expect(stuck).toContain(m.notifiedTexts.tag);
          expect(stuck).toContain(SQL);
          expect(stuck).toContain(m.parcels[1]!.order_no);
          expect(stuck).toContain(m.carrierName);
          expect(trouble).toContain(m.notifiedTexts.description);
          expect(groups).toContain(m.carrierName);
          expect(seen.requests).toEqual([`file://${page}`]);
          expect(seen.problems).toEqual([]);
        },
        { offline: false },
      );
      expect(beacon.hits).toEqual([]);
    } finally {
      await m.close();
      await beacon.close();
    }
  }, 60_000);
});

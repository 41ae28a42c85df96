// Every crontab line the README and the docs show, run as cron runs it (sh -c, an empty environment but PATH and
// HOME, stdin from /dev/null) against the built-in sandbox, on two nights in a row: a good night prints nothing and
// exits 0, so that cron mails nobody. The lines are read from the documents, so a recipe that changes is run as it
// is; what only a shop's machine has (its key file, its folders, its mail) is put in its place.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../fixture-files.js';
import { ROOT, shellLine } from './helpers.js';
import { startMailReceiver } from './notify-receivers.js';

const DOCUMENTS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((f) => path.join('docs', f))];

/** The commands of the crontab lines in ```cron blocks, with the document each comes from. */
function cronLines(): { doc: string; command: string }[] {
  const out: { doc: string; command: string }[] = [];
  for (const doc of DOCUMENTS.filter((d) => d.endsWith('.md'))) {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    for (const block of text.matchAll(/```cron\n([\s\S]*?)```/g)) {
      for (const line of (block[1] ?? '').split('\n')) {
        const m = /^(?:\S+\s+){5}(.+)$/.exec(line.trim());
        if (m && !line.trim().startsWith('#')) out.push({ doc, command: m[1] as string });
      }
    }
  }
  return out;
}

/** A line as it runs here: the sandbox for the account, a folder of this test for the shop's, a file for mail. */
function onThisMachine(command: string, shop: string): string {
  return command
    .replace(/TRK_API_KEY_FILE=\S+ /g, '')
    .replace(/TRK_PROFILE=\S+ /g, '')
    .replace(/\/srv\/shop\//g, `${shop}/`)
    .replace(/\bmail -s ("[^"]*"|\S+) \S+@\S+?(?=['\s]|$)/g, `cat > ${shop}/mail.txt`)
    .replace(/\btrk (\w+)/g, 'trk $1 --sandbox');
}

describe('crontab lines of the README and the docs, under cron', () => {
  const lines = cronLines();

  it('are found in the documents', () => {
    expect(lines.map((l) => l.doc)).toEqual(expect.arrayContaining(['README.md', 'docs/mirror.md', 'docs/notify.md']));
    expect(lines.map((l) => l.command)).toContain('trk sync --quiet && trk notify run --quiet');
  });

  it('print nothing and exit 0 on two good nights in a row', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'trk-cron-'));
    const shop = path.join(home, 'shop');
    const bin = path.join(home, 'bin');
    mkdirSync(shop);
    mkdirSync(bin);
    copyFileSync(fixturePath('exports/shopify-orders.csv'), path.join(shop, 'shipments.csv'));
    writeFileSync(
      path.join(bin, 'trk'),
      `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'bin', 'trk.js')}" "$@"\n`,
    );
    chmodSync(path.join(bin, 'trk'), 0o755);
    // The shop's mail server and the rules of the README's recipes (trk notify run sends what they match): kept in
    // the sandbox's profile and mirror, as a shop keeps them in its own.
    const mail = await startMailReceiver();
    const cron = { PATH: `/usr/bin:/bin:${bin}`, HOME: home };
    for (const setup of [
      `trk config set smtp-url ${mail.url} --sandbox`,
      'trk config set smtp-from shop@example.com --sandbox',
      'trk sync --sandbox --quiet',
      'trk notify add nightly-trouble --when Exception,DeliveryFailure --to mailto:ops@example.com --digest --sandbox',
      'trk notify add delivery --when OutForDelivery,Delivered --to customer --sandbox',
    ]) {
      const r = await shellLine(setup, cron);
      expect({ setup, ...r }).toMatchObject({ setup, code: 0 });
    }
    for (const night of [1, 2]) {
      for (const { doc, command } of lines) {
        const line = onThisMachine(command, shop);
        // Cron's environment: PATH and HOME alone.
        const r = await shellLine(line, cron);
        expect({ night, doc, line, ...r }).toEqual({ night, doc, line, code: 0, stdout: '', stderr: '' });
      }
    }
    await mail.close();
  }, 120_000);
});

// Headless Chromium for the tests of pages trk writes (and for the README's screenshot): the machine's own
// Chromium (Debian's `chromium` package; CHROMIUM names another), driven by playwright-core, which never downloads
// a browser. Each launch has an empty profile of its own and no network at all (unless a test opens it to count
// what a page would fetch): a page must show everything from what it holds. Where no Chromium is installed,
// `chromiumMissing()` says so and the tests skip.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium to run, or undefined. */
export function chromiumPath() {
  if (process.env.CHROMIUM) return existsSync(process.env.CHROMIUM) ? process.env.CHROMIUM : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

/** Why the browser tests cannot run here, or undefined when they can. */
export function chromiumMissing() {
  return chromiumPath() === undefined
    ? `no Chromium at ${CANDIDATES.join(' or ')} (apt-get install chromium, or set CHROMIUM): the browser tests ` +
        `are skipped`
    : undefined;
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Opens `file` from disk in a new headless Chromium with the network off, and hands `use` the page once it has
 * loaded; every console message and page error is collected in `problems`, every request the page makes in
 * `requests`. The browser and its profile are gone when it resolves. `offline: false` lets the page reach the
 * network (a test's own server on 127.0.0.1 that counts what reaches it).
 */
export async function withPage(file, use, { width = 1100, height = 900, offline = true } = {}) {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(chromiumMissing());
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(tmpdir(), 'trk-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    offline,
    args: FLAGS,
    viewport: { width, height },
  });
  try {
    const page = await context.newPage();
    const problems = [];
    const requests = [];
    page.on(
      'console',
      (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`console ${m.type()}: ${m.text()}`),
    );
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${path.resolve(file)}`, { waitUntil: 'load' });
    return await use(page, { problems, requests });
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// What `trk sync` costs the service, request by request, as the emulator logged them: a first sync asks for every
// page and the details of every record and nothing else (no request to find out the version, no page read twice);
// an incremental sync asks the pages a watermark on tracking time needs, and one query more.

import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxRequestLog } from '@trk/sandbox/http/request-log.js';
import { STORE_KINDS } from '../../store/kinds.js';
import { emulatorList, numbers, startEmulator, trk, type Emulator } from '../../e2e/helpers.js';
import { HOUR, mirrorEnv, register, START, sync } from '../../e2e/mirror-helpers.js';
import { startRecorder } from '../../e2e/recorder.js';

const sqlite = STORE_KINDS.find((k) => k.name === 'SQLite')!;

/**
 * The emulator with its log of requests: `[version/operation, status]` of each, in the order they came. Its rate
 * limit is off: whether two arrivals are a second apart depends on when a busy machine lets it read them (trk's
 * pace against the limit is measured in bench/sync-ceiling.mjs); what is counted here is what the sync asks for.
 */
async function loggedEmulator(): Promise<{ emu: Emulator; log: [string, number | 'dropped'][] }> {
  const log: [string, number | 'dropped'][] = [];
  const onRequest = (e: SandboxRequestLog) => log.push([`${e.version}/${e.operation}`, e.status]);
  const emu = await startEmulator({ speed: 0, start: START, onRequest, rateLimit: 0 });
  return { emu, log };
}

describe('a first sync asks for what it needs alone', () => {
  let emu: Emulator | undefined;
  afterEach(() => emu?.close());

  it('reads 3 pages and 3 answers of details for 120 records, in v2.1, under a profile of v2', async () => {
    const logged = await loggedEmulator();
    emu = logged.emu;
    // The profile's version is v2 (the default): the list is read in v2.1 all the same, and nothing else is asked.
    const env = await mirrorEnv(emu, sqlite);
    await register(emu, env, numbers(120, 'RQ'), 40);
    await emu.sandbox.advance(24 * HOUR);
    logged.log.length = 0;
    const s = await sync({ ...env, TRK_API_VERSION: 'v2' });
    expect(s).toMatchObject({ full: true, list_version: 'v2.1', records_listed: 120, details_fetched: 120 });
    expect(logged.log).toEqual([
      ['v2.1/gettracklist', 200],
      ['v2.1/gettracklist', 200],
      ['v2.1/gettracklist', 200],
      ['v2.1/gettrackinfo', 200],
      ['v2.1/gettrackinfo', 200],
      ['v2.1/gettrackinfo', 200],
    ]);
    expect(s.requests).toBe(6);
  }, 60_000);

  it('reads the list again in the profile version when the account is refused v2.1, and keeps to it', async () => {
    const logged = await loggedEmulator();
    emu = logged.emu;
    const proxy = await startRecorder(emu.sandbox.url, {
      refuse: (path) => (path.startsWith('/track/v2.1/') ? 404 : undefined),
    });
    try {
      const env = await mirrorEnv(emu, sqlite);
      await register(emu, env, numbers(80, 'RV'), 40);
      await emu.sandbox.advance(24 * HOUR);
      const viaProxy = { ...env, TRK_API_VERSION: 'v2', TRK_BASE_URL: proxy.url };
      const first = await sync(viaProxy);
      expect(first).toMatchObject({ full: true, list_version: 'v2', records_listed: 80, details_fetched: 80 });
      // The first page's refusal, then 2 pages and 2 answers of details in v2. (The proxy's own delays can bring
      // two requests closer on arrival than they left: a 429 then is the proxy's, and tried again.)
      const answered = proxy.requests.filter((r) => r.status !== 429);
      expect(answered.map((r) => `${r.path} ${r.status}`)).toEqual([
        '/track/v2.1/gettracklist 404',
        ...Array(2).fill('/track/v2/gettracklist 200'),
        ...Array(2).fill('/track/v2/gettrackinfo 200'),
      ]);
      expect(first.requests).toBe(5);
      const mark = proxy.mark();
      const later = await sync(viaProxy);
      expect(later.list_version).toBe('v2');
      expect(proxy.since(mark).every((r) => r.path.startsWith('/track/v2/'))).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('an incremental sync costs what changed', () => {
  let emu: Emulator | undefined;
  afterEach(() => emu?.close());

  it('asks the pages a watermark on tracking time needs, and one query more (stops by stoptrack)', async () => {
    const logged = await loggedEmulator();
    emu = logged.emu;
    const env = await mirrorEnv(emu, sqlite);
    // A batch every 18 minutes over 6 hours, so that tracking runs are spread over the clock.
    const list = numbers(600, 'RW');
    await register(emu, env, list, 30, 18 * 60_000);
    await emu.sandbox.advance(24 * HOUR);
    const first = await sync(env);
    // Stopped by another client: its tracking time no longer moves.
    expect((await trk(['stop', list[5]!, '-q'], { env })).code).toBe(0);
    await emu.sandbox.advance(40 * 60_000);
    // What a watermark on tracking time reads: the records tracked since the first sync's watermark (less the
    // margin that rereads answers the service wrote late), 40 a page.
    const from = new Date(Date.parse(first.watermark!) - 2 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const tracked = (await emulatorList(emu, { track_time_from: from })).length;
    expect(tracked).toBeGreaterThan(40);
    logged.log.length = 0;
    const s = await sync(env);
    const lists = logged.log.filter(([op]) => op.endsWith('/gettracklist'));
    expect(lists.length).toBe(Math.ceil(tracked / 40) + 1);
    expect(logged.log.filter(([, status]) => status !== 200)).toEqual([]);
    expect(s).toMatchObject({ full: false, requests: logged.log.length });
    const offline = await trk(['list', '--offline', '--number', list[5]!, '--json'], { env });
    expect(JSON.parse(offline.stdout)).toMatchObject([{ number: list[5], tracking_status: 'Stopped' }]);
  }, 120_000);
});

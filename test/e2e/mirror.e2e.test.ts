// The mirror end to end: trk against the emulator on 127.0.0.1. First sync, incremental sync after the
// emulator's clock moved parcels, --full after deletions, a sync killed with SIGKILL then resumed, two syncs at
// once, notifications stored while a sync runs, offline reads equal to online ones, changes with a cursor across
// a failed run. Each against the mirror in a SQLite file and in a PostgreSQL database (test/store/kinds.ts). The
// built CLI runs as a process of its own where the process is the subject: killed, two at once, its stdout on a
// full disk, a listener stopped with Ctrl-C.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationWriter } from '../../src/store/notifications.js';
import { STORE_KINDS } from '../store/kinds.js';
import { beforeProcess, numbers, ROOT, shellLine, startEmulator, trk, trkProcess, type Emulator } from './helpers.js';
import {
  count,
  HOUR,
  mirrorEnv,
  onlineJson,
  openStore,
  register,
  spawnTrk,
  START,
  sync,
  until,
} from './mirror-helpers.js';
import { startRecorder } from './recorder.js';

describe.each(STORE_KINDS)('trk sync and the offline reads ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  let emu: Emulator;
  let env: NodeJS.ProcessEnv;
  const list = numbers(120, 'RM');

  beforeAll(async () => {
    emu = await startEmulator({ speed: 0, start: START });
    env = await mirrorEnv(emu, kind);
    await register(emu, env, list, 40);
    await emu.sandbox.advance(3 * 24 * HOUR);
  }, 120_000);
  afterAll(() => emu.close());

  it('makes a first sync full: every record and its details, no change', async () => {
    const s = await sync(env);
    expect(s).toMatchObject({
      full: true,
      list_version: 'v2.1',
      records_listed: 120,
      records_added: 120,
      details_fetched: 120,
      changes: 0,
    });
    // 3 pages and 3 answers of details (the profile reads v2.1 already: nothing to find out).
    expect(s.requests).toBe(6);
    expect(await count(env, 'details')).toBe(120);
  });

  it('answers list --offline as the service answers list, for every filter', async () => {
    const filters: string[][] = [
      [],
      ['--status', 'InTransit,Delivered'],
      ['--carrier', '3011'],
      ['--tracking', 'Tracking'],
      ['--registered-since', '2026-05-31T00:00:00Z', '--registered-until', '2026-06-02'],
      ['--tracked-since', '2026-06-03T00:00:00Z'],
      ['--tag', 'order-1*'],
      ['--sub-status', 'InTransit_Other'],
      ['--number', list[7]!.slice(3, 9)],
      ['--number', `${list[3]},${list[5]}`],
      ['--order-by', 'TrackTimeDesc'],
      ['--push-status', 'NotPushed'],
      ['--order', '#10030'],
      ['--email', 'CUSTOMER7@example.com'],
      ['--search', 'order-11'],
      ['--stale', '1d'],
    ];
    for (const f of filters) {
      const offline = await trk(['list', '--offline', ...f, '--json'], { env });
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.stderr).toMatch(/mirror synced/);
      const online = (await onlineJson(env, ['list', ...f])) as { number: string }[];
      const mirrored = JSON.parse(offline.stdout) as { number: string }[];
      // Several values of a filter are merged by time online; records of the same time may come in either order.
      const order = (l: { number: string }[]) =>
        f.some((v) => v.includes(',')) ? [...l].sort((a, b) => a.number.localeCompare(b.number)) : l;
      expect(order(mirrored), f.join(' ')).toEqual(order(online));
      expect(mirrored.length, f.join(' ')).toBeGreaterThan(0);
    }
    const csv = await trk(['list', '--offline', '--status', 'InTransit', '--csv'], { env });
    expect(csv.stdout).toBe((await trk(['list', '--status', 'InTransit', '--csv'], { env })).stdout);
  }, 120_000);

  it('answers info --offline as the service answers info, and finds a parcel by order number', async () => {
    const asked = [list[0]!, list[1]!, 'RM000000000XX'];
    const offline = JSON.parse((await trk(['info', '--offline', ...asked, '--json'], { env })).stdout);
    const online = (await onlineJson(env, ['info', ...asked])) as typeof offline;
    expect(offline.accepted).toEqual(online.accepted);
    // Not in the mirror: rejected with the service's code (the wording is the service's own).
    const codes = (r: { rejected: { number: string; error: { code: number } }[] }) =>
      r.rejected.map((x) => [x.number, x.error.code]);
    expect(codes(offline)).toEqual(codes(online));
    for (const f of [
      ['--status', 'InTransit'],
      ['--sub-status', 'InTransit_Other'],
    ]) {
      const o = await trk(['info', '--offline', ...list.slice(0, 10), ...f, '--json'], { env });
      expect(JSON.parse(o.stdout)).toEqual(await onlineJson(env, ['info', ...list.slice(0, 10), ...f]));
    }
    const found = await trk(['find', '#10042', '--json'], { env });
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout).accepted.map((d: { number: string }) => d.number)).toEqual([list[42]]);
    const byInfo = await trk(['info', 'customer42@example.com', '--json'], { env });
    expect(JSON.parse(byInfo.stdout).accepted.map((d: { number: string }) => d.number)).toEqual([list[42]]);
    const none = await trk(['find', 'nobody@example.com'], { env });
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain(
      'trk: no parcel in the mirror has "nobody@example.com" in its tracking number, order number, e-mail or tag ' +
        '(any part; letters A to Z in any case): run "trk sync" if it is new (mirror synced ',
    );
  }, 60_000);

  it('finds a parcel by any part of its order number, e-mail, tag or number, literally, in any case', async () => {
    // What register() gave parcel i, and the parcels holding a text in any of it (the rule, written plainly).
    const references = (i: number) => [list[i]!, `order-${i}`, `#${10000 + i}`, `customer${i}@example.com`];
    const holders = (text: string) =>
      list.filter((_, i) => references(i).some((v) => v.toLowerCase().includes(text.toLowerCase()))).sort();
    const find = async (text: string) => {
      const r = await trk(['find', text, '--json'], { env });
      const found = r.code === 0 ? JSON.parse(r.stdout).accepted.map((d: { number: string }) => d.number) : [];
      return { code: r.code, found: found.sort(), stderr: r.stderr };
    };
    // The order number is "#10042": a part of it, of the e-mail, of the tag, of the number; any case.
    for (const text of ['10042', 'TOMER42@EXAMPLE', 'der-42', list[42]!.slice(4, 10)]) {
      expect(holders(text), text).toContain(list[42]);
      expect(await find(text), text).toMatchObject({ code: 0, found: holders(text) });
    }
    // Shorter than the index's trigrams: found all the same.
    expect(holders('42').length).toBeGreaterThan(1);
    expect((await find('42')).found).toEqual(holders('42'));
    expect((await find('7')).found).toEqual(holders('7'));
    expect(await find('q')).toMatchObject({ code: 1, found: [] });
    // LIKE's wildcards, its escape character and quotes are characters like any other.
    for (const text of ['%', '_', '%42', '1_0', '\\', "o'42", '"42"', '0%']) {
      const r = await find(text);
      expect(r.code, text).toBe(1);
      expect(JSON.parse(r.stderr).error.message, text).toContain(`no parcel in the mirror has "${text}" in its`);
    }
    // Held by more than are shown: the first ones, and a line that says so.
    const many = await find('RM');
    expect(many.found).toHaveLength(100);
    expect(many.stderr).toContain('more than 100 parcels have "RM": the first 100 shown; give more of it\n');
  }, 60_000);

  it('records the status changes a later sync finds, and a cursor passes them only once written', async () => {
    await emu.sandbox.advance(4 * 24 * HOUR);
    const s = await sync(env);
    expect(s.full).toBe(false);
    expect(s.changes).toBeGreaterThan(0);
    const changes = JSON.parse((await trk(['changes', '--json'], { env })).stdout) as Record<string, unknown>[];
    expect(changes).toHaveLength(await count(env, 'changes'));
    expect(changes[0]).toEqual(
      expect.objectContaining({
        source: 'sync',
        number: expect.any(String),
        from: expect.any(String),
        to: expect.any(String),
      }),
    );
    // A night whose output fails: the cursor stays, the next night gets every change.
    const failed = await runToDevFull(['changes', '--cursor', 'nightly', '--json'], env);
    expect(failed).not.toBe(0);
    const night = JSON.parse((await trk(['changes', '--cursor', 'nightly', '--json'], { env })).stdout) as unknown[];
    expect(night).toEqual(changes);
    expect(JSON.parse((await trk(['changes', '--cursor', 'nightly', '--json'], { env })).stdout)).toEqual([]);
    const since = JSON.parse(
      (await trk(['changes', '--since', '2026-06-07T00:00:00Z', '--status', 'Delivered', '--json'], { env })).stdout,
    );
    expect(
      since.every((c: { to: string; detected_at: string }) => c.to === 'Delivered' && c.detected_at >= '2026-06-07'),
    ).toBe(true);
  }, 60_000);

  it('moves a cursor only past changes it knows were taken: not by a pipe alone, by --exec, by --ack', async () => {
    await emu.sandbox.advance(3 * 24 * HOUR);
    expect((await sync(env)).changes).toBeGreaterThan(0);
    const all = (await trk(['changes', '--cursor', 'probe', '-o', 'ndjson'], { env })).stdout;
    expect(all).not.toBe('');
    // A consumer that fails, reading everything or not: the cursor stays, whatever the output's size.
    await beforeProcess();
    const bin = `"${process.execPath}" "${path.join(ROOT, 'bin', 'trk.js')}"`;
    for (const consumer of ['(cat > /dev/null; exit 1)', 'head -c 10 > /dev/null']) {
      const failed = await shellLine(`${bin} changes --cursor piped -o ndjson | ${consumer}`, env);
      // Told either way: a pipe trk cannot see read, or one that broke under it.
      expect(failed.stderr).toMatch(/cursor "piped" (not moved: the changes went into a pipe|stays where it was)/);
    }
    const file = path.join(String(env.HOME), 'taken.ndjson');
    const taken = await trk(['changes', '--cursor', 'piped', '-o', 'ndjson', '--exec', `cat > '${file}'`], { env });
    expect(taken.code, taken.stderr).toBe(0);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(file, 'utf8')).toBe(all);
    // Taken: nothing left for the cursor, and no command is run for nothing.
    const again = await trk(['changes', '--cursor', 'piped', '--exec', `echo ran > '${file}'`], { env });
    expect(again.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(all);
    // A command that fails: its status is trk's, and the cursor stays.
    const refused = await trk(['changes', '--cursor', 'execd', '--exec', 'cat > /dev/null; exit 7'], { env });
    expect(refused.code).toBe(7);
    expect(refused.stderr).toMatch(/--exec cat > \/dev\/null; exit 7 exited with 7; the cursor "execd" stays/);
    expect((await trk(['changes', '--cursor', 'execd', '-o', 'ndjson'], { env })).stdout).toBe(all);
    // Into a pipe in this process: the same, and --ack moves the cursor to where that read reached.
    const piped = await trk(['changes', '--cursor', 'acked', '-o', 'ndjson'], { env, stdoutTarget: 'pipe' });
    expect(piped.stdout).toBe(all);
    expect((await trk(['changes', '--cursor', 'acked', '-o', 'ndjson'], { env, stdoutTarget: 'pipe' })).stdout).toBe(
      all,
    );
    const ack = await trk(['changes', '--cursor', 'acked', '--ack'], { env });
    expect(ack.stderr).toMatch(/cursor "acked" moved to change \d+/);
    expect((await trk(['changes', '--cursor', 'acked', '-o', 'ndjson'], { env })).stdout).toBe('');
    expect((await trk(['changes', '--cursor', 'acked', '--ack'], { env })).stderr).toMatch(/nothing to acknowledge/);
    expect((await trk(['changes', '--ack'], { env })).code).toBe(2);
  }, 60_000);

  it('takes out of the mirror with --full what was deleted on the service, and only then', async () => {
    const gone = list.slice(100, 105);
    expect((await trk(['delete', ...gone, '--yes', '-q'], { env })).code).toBe(0);
    expect((await sync(env)).records_deleted).toBe(0);
    expect(await count(env, 'records')).toBe(120);
    const s = await sync(env, '--full');
    expect(s).toMatchObject({ full: true, records_deleted: 5 });
    expect(await count(env, 'records')).toBe(115);
    const offline = await trk(['list', '--offline', '--number', gone.join(','), '--json'], { env });
    expect(JSON.parse(offline.stdout)).toEqual([]);
  }, 60_000);
});

/** Runs trk with its stdout on /dev/full: every write fails (ENOSPC). Resolves with the exit code. */
function runToDevFull(args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'sh',
      ['-c', `exec "${process.execPath}" "${path.join(ROOT, 'bin', 'trk.js')}" "$@" > /dev/full`, 'sh', ...args],
      { env },
    );
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe.each(STORE_KINDS)('an incremental sync costs what changed ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  it('asks at most 8 requests when a few dozen of 600 records moved', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    try {
      const env = await mirrorEnv(emu, kind);
      // Registered a batch every 18 minutes over 6 hours, so that tracking runs are spread over the clock.
      await register(emu, env, numbers(600, 'RI'), 30, 18 * 60_000);
      await emu.sandbox.advance(24 * HOUR);
      await sync(env);
      await emu.sandbox.advance(18 * 60_000);
      const s = await sync(env);
      expect(s.full).toBe(false);
      expect(s.details_fetched).toBeGreaterThan(0);
      expect(s.details_fetched).toBeLessThanOrEqual(60);
      expect(s.requests).toBeLessThanOrEqual(8);
      // And the mirror still equals the service.
      const offline = await trk(['list', '--offline', '--json'], { env });
      expect(JSON.parse(offline.stdout)).toEqual(await onlineJson(env, ['list']));
    } finally {
      await emu.close();
    }
  }, 180_000);
});

/**
 * A gettrackinfo answer as the service sends one once its providers of a record changed: the providers' latest sync
 * earlier than an answer before said, while the record's tracking moved on.
 */
function providersSyncedEarlier(body: string, path: string): string {
  if (!path.endsWith('/gettrackinfo')) return body;
  const env = JSON.parse(body) as { data?: { accepted?: { track_info?: { tracking?: { providers?: object[] } } }[] } };
  for (const item of env.data?.accepted ?? []) {
    for (const p of item.track_info?.tracking?.providers ?? [])
      Object.assign(p, { latest_sync_time: '2026-06-01T01:00:00Z' });
  }
  return JSON.stringify(env);
}

describe.each(STORE_KINDS)('details that follow their record ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  it("takes details of a newer tracking whose providers' time went back, and asks for them once", async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    let earlier = false;
    const proxy = await startRecorder(emu.sandbox.url, {
      answer: (body, path) => (earlier ? providersSyncedEarlier(body, path) : body),
    });
    try {
      // Every sync through the proxy: a mirror belongs to the address it was first synced from.
      const env = { ...(await mirrorEnv(emu, kind)), TRK_BASE_URL: proxy.url };
      const list = numbers(40, 'RB');
      await register(emu, env, list, 40);
      await emu.sandbox.advance(24 * HOUR);
      await sync(env);
      const statuses = async (args: string[]) =>
        new Map(
          (
            JSON.parse((await trk([...args, '--json'], { env })).stdout) as { number: string; package_status: string }[]
          ).map((r) => [r.number, r.package_status]),
        );
      const before = await statuses(['list', '--offline']);
      await emu.sandbox.advance(4 * 24 * HOUR);
      earlier = true;
      const moved = await sync(env);
      const listed = await statuses(['list', '--offline']);
      const changed = list.filter((n) => before.get(n) !== listed.get(n));
      expect(changed.length).toBeGreaterThan(0);
      expect(moved).toMatchObject({ details_fetched: 40, changes: changed.length });
      const info = JSON.parse((await trk(['info', '--offline', ...list, '--json'], { env })).stdout) as {
        accepted: { number: string; track_info: { latest_status: { status: string } } }[];
      };
      expect(new Map(info.accepted.map((d) => [d.number, d.track_info.latest_status.status]))).toEqual(listed);
      expect(await sync(env)).toMatchObject({ details_fetched: 0, changes: 0 });
    } finally {
      await proxy.close();
      await emu.close();
    }
  }, 120_000);
});

/** A gettrackinfo answer that gives each record twice. */
function detailsTwice(body: string, path: string): string {
  if (!path.endsWith('/gettrackinfo')) return body;
  const env = JSON.parse(body) as { data?: { accepted?: unknown[] } };
  if (env.data?.accepted) env.data.accepted = env.data.accepted.flatMap((item) => [item, item]);
  return JSON.stringify(env);
}

describe.each(STORE_KINDS)('a sync whose answers repeat records ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  it('counts each record once in every count of its summary', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    // And each answer of details gives every record twice.
    const proxy = await startRecorder(emu.sandbox.url, { answer: detailsTwice });
    try {
      const env = { ...(await mirrorEnv(emu, kind)), TRK_BASE_URL: proxy.url };
      const list = numbers(130, 'RD');
      await register(emu, env, list, 40);
      await emu.sandbox.advance(2 * 24 * HOUR);
      // Each page after the first starts with the last 2 records of the page before: 136 records served for 130.
      emu.sandbox.setFaults({ pageOverlap: 2 });
      const once = { records_listed: 130, records_deleted: 0 };
      expect(await sync(env)).toMatchObject({ ...once, full: true, records_added: 130, details_fetched: 130 });
      await emu.sandbox.advance(2 * 24 * HOUR);
      const later = await sync(env);
      expect(later).toMatchObject({ ...once, full: false, records_added: 0, details_fetched: 130 });
      const changes = JSON.parse((await trk(['changes', '--json'], { env })).stdout) as { number: string }[];
      expect(new Set(changes.map((c) => c.number)).size).toBe(later.changes);
      expect(await sync(env, '--full')).toMatchObject({ ...once, full: true, records_added: 0 });
      expect(await count(env, 'records')).toBe(130);
    } finally {
      await proxy.close();
      await emu.close();
    }
  }, 120_000);
});

describe.each(STORE_KINDS)('a mirror under concurrent writers and crashes ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  it('counts each record it lists once, though one is in the queries by stop and by track time', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    try {
      const env = await mirrorEnv(emu, kind);
      // Stopped records whose times no longer move, then ten new ones, registered and tracked since the sync.
      const old = numbers(20, 'RO');
      await register(emu, env, old, 20, HOUR);
      expect((await trk(['stop', ...old, '-q'], { env })).code).toBe(0);
      await emu.sandbox.advance(24 * HOUR);
      await sync(env);
      await register(emu, env, numbers(10, 'RP'), 10, 10 * 60_000);
      const s = await sync(env);
      // The 20 stopped ones again (the first sync's watermark is their stop, the latest time it saw), and the 10
      // new ones once each: 30 of 30, not 40.
      expect(s).toMatchObject({ full: false, records_listed: 30, records_added: 10, details_fetched: 10 });
      expect(s.requests).toBeLessThanOrEqual(6);
    } finally {
      await emu.close();
    }
  }, 120_000);

  it('resumes after SIGKILL without asking again for the details it stored', async () => {
    const emu = await startEmulator({ speed: 0, start: START, latencyMs: 150 });
    try {
      const env = await mirrorEnv(emu, kind);
      await register(emu, env, numbers(400, 'RK'), 40);
      await emu.sandbox.advance(2 * 24 * HOUR);
      await beforeProcess();
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'trk.js'), 'sync', '-q'], { env, stdio: 'ignore' });
      let stored = 0;
      for (let i = 0; i < 400 && stored === 0; i++) {
        // Real time: the sync is a process of its own, on the machine's clock; polled for at most 40 s.
        await new Promise((r) => setTimeout(r, 100));
        try {
          stored = await count(env, 'details');
        } catch {
          // Not created yet.
        }
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.on('close', r));
      stored = await count(env, 'details');
      expect(stored).toBeGreaterThan(0);
      expect(stored).toBeLessThan(400);
      const before = emu.sandbox.state().requests.byOperation['v2.1/gettrackinfo'] ?? 0;
      const s = await sync(env);
      expect(s.details_fetched).toBe(400 - stored);
      const after = emu.sandbox.state().requests.byOperation['v2.1/gettrackinfo'] ?? 0;
      expect(after - before).toBe(Math.ceil((400 - stored) / 40));
      expect(await count(env, 'details')).toBe(400);
    } finally {
      await emu.close();
    }
  }, 120_000);

  it('takes two syncs at once, and a listener storing notifications while two syncs run, losing ' +
    'no update', async () => {
    const emu = await startEmulator({ speed: 0, start: START, latencyMs: 50 });
    try {
      const env = await mirrorEnv(emu, kind);
      const list = numbers(200, 'RC');
      await register(emu, env, list, 40);
      await emu.sandbox.advance(2 * 24 * HOUR);
      // Two processes, as two cron jobs are: SQLite's locks are between connections, not within one process.
      const [a, b] = await Promise.all([
        trkProcess(['sync', '--json'], { env }),
        trkProcess(['sync', '--json'], { env }),
      ]);
      expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
      expect(await count(env, 'records')).toBe(200);
      expect(await count(env, 'details')).toBe(200);

      // The clock moves; a listener (another host's, for a database) stores the newest details of 40 numbers while two
      // syncs run.
      await emu.sandbox.advance(3 * 24 * HOUR);
      const fresh = (await onlineJson(env, ['info', ...list.slice(0, 40)])) as { accepted: Record<string, unknown>[] };
      const store = await openStore(env);
      try {
        const writer = new NotificationWriter(store);
        const running = [trkProcess(['sync', '--json'], { env }), trkProcess(['sync', '--json'], { env })];
        for (const data of fresh.accepted) {
          await writer.write({ body: { event: 'TRACKING_UPDATED', data }, version: 'v2' });
          // Real time: the notifications are spread over the syncs of the other processes.
          await new Promise((r) => setTimeout(r, 20));
        }
        const done = await Promise.all(running);
        expect(
          done.map((r) => r.code),
          done.map((r) => r.stderr).join(''),
        ).toEqual([0, 0]);
      } finally {
        await store.close();
      }
      // The mirror equals the service: every record and all its details.
      const offline = await trk(['info', '--offline', ...list, '--json'], { env });
      expect(JSON.parse(offline.stdout)).toEqual(await onlineJson(env, ['info', ...list]));
      const offlineList = await trk(['list', '--offline', '--json'], { env });
      expect(JSON.parse(offlineList.stdout)).toEqual(await onlineJson(env, ['list']));
      const changes = JSON.parse((await trk(['changes', '--json'], { env })).stdout) as {
        number: string;
        to: string;
      }[];
      // Each change once: what a notification recorded, the sync does not record again.
      const keys = changes.map((c) => `${c.number}/${c.to}`);
      expect(new Set(keys).size).toBe(keys.length);
    } finally {
      await emu.close();
    }
  }, 180_000);
});

describe.each(STORE_KINDS)('trk webhook listen --store ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  it('keeps each verified notification in the mirror before it answers; refuses and keeps nothing forged', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    const env = await mirrorEnv(emu, kind);
    const listener = spawnTrk(['webhook', 'listen', '--port', '0', '--store', '--json'], env);
    try {
      const listening = /Listening on (http:\/\/127\.0\.0\.1:\d+\/hook)/;
      const url = await until('the listening line', () => listening.exec(listener.out.stderr)?.[1]);
      const storing = /storing them in the mirror /;
      await until('the line of what it does', () => (storing.test(listener.out.stderr) ? true : undefined));
      emu.sandbox.setSettings({ webhookUrl: url });
      const list = numbers(5, 'RW');
      await register(emu, env, list, 5);
      await emu.sandbox.advance(2 * 24 * HOUR);
      // Each line is written once the answer went out, which was after the commit: the mirror has it by then.
      const lines = await until('five notifications', () => {
        const got = listener.out.stdout.split('\n').filter((l) => l.includes('TRACKING_UPDATED'));
        return new Set(got.map((l) => JSON.parse(l).number)).size >= 5 ? got : undefined;
      });
      expect(lines.map((l) => JSON.parse(l).verified)).toEqual(lines.map(() => true));
      type Change = { number: string; from: string | null; source: string };
      const changes = JSON.parse((await trk(['changes', '--json'], { env })).stdout) as Change[];
      const fromNothing = changes.filter((c) => c.source === 'webhook' && c.from === null);
      expect(new Set(fromNothing.map((c) => c.number))).toEqual(new Set(list));
      const offline = await trk(['info', '--offline', ...list, '--json'], { env });
      expect(offline.code, offline.stderr).toBe(0);
      const accepted = JSON.parse(offline.stdout).accepted as { number: string }[];
      expect(accepted.map((d) => d.number).sort()).toEqual([...list].sort());

      // A notification whose signature does not hold: 401, and nothing of it in the mirror.
      const track_info = { latest_status: { status: 'Delivered' } };
      const forged = { event: 'TRACKING_UPDATED', data: { number: 'RWFORGED0001', carrier: 3011, track_info } };
      const headers = { 'content-type': 'application/json', sign: '0'.repeat(64) };
      const refused = await fetch(url, { method: 'POST', headers, body: JSON.stringify(forged) });
      expect(refused.status).toBe(401);
      await until('the refusal', () => (/401 bad signature/.test(listener.out.stderr) ? true : undefined));
      expect(await count(env, 'records')).toBe(5);
      const after = JSON.parse((await trk(['changes', '--json'], { env })).stdout) as { number: string }[];
      expect(after.map((c) => c.number)).not.toContain('RWFORGED0001');
    } finally {
      listener.child.kill('SIGINT');
      await emu.close();
    }
    expect(await listener.exited).toBe(0);
    // The clock moved parcels on: every notification the service sent is stored, each status change counted.
    const updates = listener.out.stdout.split('\n').filter((l) => l.includes('TRACKING_UPDATED')).length;
    const all = JSON.parse((await trk(['changes', '--json'], { env })).stdout) as { source: string }[];
    const webhook = all.filter((c) => c.source === 'webhook').length;
    expect(listener.out.stderr).toContain(
      `; ${updates} notifications stored in the mirror (${webhook} status changes)`,
    );
  }, 90_000);
});

describe('trk webhook listen --store, refused as asked', () => {
  it('refuses --db without --store, and --store with --skip-verify, before it listens', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    try {
      const env = await mirrorEnv(emu, STORE_KINDS[0]!);
      const noStore = await trk(['webhook', 'listen', '--port', '0', '--db', 'm.db'], { env });
      expect(noStore.code).toBe(2);
      expect(noStore.stderr).toBe('trk: --db names the mirror --store writes to: add --store, or leave out --db\n');
      const unverified = await trk(['webhook', 'listen', '--port', '0', '--store', '--skip-verify'], { env });
      expect(unverified.code).toBe(2);
      expect(unverified.stderr).toMatch(/^trk: --store keeps verified notifications only: leave out --skip-verify/);
    } finally {
      await emu.close();
    }
  });
});

const pg = STORE_KINDS.find((k) => k.name === 'PostgreSQL')!;

describe.skipIf(pg.missing !== undefined)('a mirror in PostgreSQL, named with its password', () => {
  it('never prints the password: not with --verbose, not in the summary, the settings or a refusal', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    try {
      const env = await mirrorEnv(emu, pg);
      const password = new URL(String(env.TRK_DB)).password;
      await register(emu, env, numbers(40, 'RP'), 40);
      const r = await trk(['sync', '--json', '-v'], { env });
      expect(r.code, r.stderr).toBe(0);
      const named =
        /^mirror: PostgreSQL \d+.* at postgres:\/\/trk:\*\*\*@127\.0\.0\.1:\d+\/trk_\d+_\d+\?sslmode=disable \(/m;
      expect(r.stderr).toMatch(named);
      expect(JSON.parse(r.stdout).mirror).toMatch(/^postgres:\/\/trk:\*\*\*@127\.0\.0\.1:/);
      const settings = [await trk(['config', 'get', 'db'], { env }), await trk(['config', 'list', '--json'], { env })];
      expect(settings[0]!.stdout).toMatch(/^postgres:\/\/trk:\*\*\*@127\.0\.0\.1:\d+\//);
      expect(JSON.parse(settings[1]!.stdout).db).toEqual({ value: expect.stringContaining('trk:***@'), source: 'env' });
      const wrongDb = String(env.TRK_DB).replace(password, 'not-it');
      const wrong = await trk(['list', '--offline', '-v'], { env: { ...env, TRK_DB: wrongDb } });
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toBe('');
      const refusedLogin =
        /^trk: the mirror's database at 127\.0\.0\.1:\d+ refused the login \(password authentication failed/m;
      expect(wrong.stderr).toMatch(refusedLogin);
      for (const out of [r, ...settings, wrong]) expect(out.stdout + out.stderr).not.toContain(password);
    } finally {
      await emu.close();
    }
  }, 60_000);

  it('refuses an address it cannot use before it sends anything, exit 2', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    try {
      const env = await mirrorEnv(emu, pg);
      const before = emu.requests();
      for (const [args, extra, message] of [
        [['sync'], { TRK_DB: `${env.TRK_DB}&sslmode=sometimes` }, /^trk: TRK_DB: sslmode "sometimes" is not one of/],
        [['sync', '--db', 'postgres://trk:pw@db:70000/x'], {}, /^trk: --db: the PostgreSQL address has port 70000/],
        [
          ['list', '--offline'],
          { TRK_DB: 'postgres://trk:pw@db/x?gssencmode=disable' },
          /^trk: TRK_DB: trk does not support the PostgreSQL parameter "gssencmode"/,
        ],
      ] as const) {
        const r = await trk(args, { env: { ...env, ...extra } });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(message);
        expect(r.stderr).not.toContain(':pw@');
      }
      expect(emu.requests()).toBe(before);
    } finally {
      await emu.close();
    }
  }, 60_000);
});

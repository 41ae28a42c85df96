// trk webhook replay: notifications kept by the listener (the forward queue, a --save folder) sent to the app
// again with the headers it expects; and trk webhook listen naming what earlier runs left in the queue.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runWebhookListen } from '../../../src/commands/webhook/listen.js';
import { runWebhookReplay } from '../../../src/commands/webhook/replay.js';
import { UsageError } from '../../../src/core/errors.js';
import { createTestIO } from '../../test-io.js';
import { forwardHeaders, startListener } from '../../../src/webhook/listen.js';
import { fakeContext } from '../../fake-context.js';
import { afterTest, app, deadUrl, signed, stopped, tempDir, until } from '../../webhook/app.js';

const KEY = 'replay-test-key';
const sha = (body: Buffer) => signed(body, KEY).sign;

/** What a listener whose app was down left in its queue under `state`: the folder, and the bodies sent. */
async function leftInQueue(
  state: string,
  numbers: string[],
): Promise<{ dir: string; bodies: Buffer[]; sentHeaders: string[][] }> {
  const listener = await startListener({
    io: createTestIO(),
    key: KEY,
    forwardTo: await deadUrl(),
    queueRoot: path.join(state, 'webhook-queue'),
    queue: { maxAttempts: 1 },
  });
  const bodies = numbers.map(stopped);
  const sentHeaders: string[][] = [];
  for (const body of bodies) {
    const headers = {
      'Content-Type': 'application/json',
      sign: sha(body),
      'X-Request-Id': `id-${sentHeaders.length}`,
    };
    sentHeaders.push(Object.entries(headers).flat());
    const res = await request(listener.url, { method: 'POST', body, headers });
    await res.body.dump();
  }
  await listener.waitFor(bodies.length);
  await listener.close();
  const [name] = await readdir(path.join(state, 'webhook-queue'));
  return { dir: path.join(state, 'webhook-queue', name!), bodies, sentHeaders };
}

describe('trk webhook replay', () => {
  it('sends what the forward queue kept, as the listener forwards it, and empties the queue', async () => {
    const state = await tempDir();
    const { dir, bodies } = await leftInQueue(state, ['AA000000001BR', 'AA000000002BR']);
    const target = await app();
    const ctx = fakeContext({ env: { TRK_STATE_DIR: state } });
    expect(await runWebhookReplay({ paths: [dir], forwardTo: target.url }, ctx)).toBe(0);
    expect(target.got.map((g) => g.body)).toEqual(bodies);
    // The signature and the other end-to-end headers as received, in their case and order.
    expect(target.got[0]!.headers.sign).toBe(sha(bodies[0]!));
    expect(forwardHeaders(target.got[1]!.raw).filter((_, i, a) => i % 2 === 0 && a[i] !== 'content-length')).toEqual(
      expect.arrayContaining(['Content-Type', 'sign', 'X-Request-Id']),
    );
    expect(target.got[1]!.headers['x-request-id']).toBe('id-1');
    expect(ctx.io.stderrText()).toMatch(/TRACKING_STOPPED AA000000001BR forwarded to .*: 200/);
    expect(ctx.io.stderrText()).toMatch(/replayed 2 notifications: 2 forwarded/);
    expect(ctx.io.stdoutText()).toBe('');
    // Taken by the app: gone from the queue, and the emptied folder with them.
    expect(await readdir(path.join(state, 'webhook-queue'))).toEqual([]);
  });

  it('never changes a --save folder; the results as data when asked for', async () => {
    const state = await tempDir();
    const hooks = path.join(await tempDir(), 'hooks');
    const listener = await startListener({ io: createTestIO(), key: KEY, saveDir: hooks });
    afterTest(() => listener.close());
    for (const n of ['AA000000001BR', 'AA000000002BR']) {
      const body = stopped(n);
      const res = await request(listener.url, {
        method: 'POST',
        body,
        headers: { sign: sha(body) },
      });
      await res.body.dump();
    }
    await listener.waitFor(2);
    const before = (await readdir(hooks)).sort();
    const target = await app([500]);
    const ctx = fakeContext({ env: { TRK_STATE_DIR: state }, global: { output: 'json' } });
    expect(await runWebhookReplay({ paths: [hooks], forwardTo: target.url }, ctx)).toBe(1);
    expect((await readdir(hooks)).sort()).toEqual(before);
    const rows = JSON.parse(ctx.io.stdoutText()) as Record<string, unknown>[];
    expect(rows.map((r) => [r.number, r.status, r.forwarded])).toEqual([
      ['AA000000001BR', 500, false],
      ['AA000000002BR', 200, true],
    ]);
    expect(ctx.io.stderrText()).toMatch(/replayed 2 notifications: 1 forwarded, 1 failed$/m);
  });

  it('keeps what the app did not take, and stops when the app cannot be reached', async () => {
    const state = await tempDir();
    const { dir } = await leftInQueue(state, ['AA000000001BR', 'AA000000002BR', 'AA000000003BR']);
    const ctx = fakeContext({ env: { TRK_STATE_DIR: state } });
    expect(await runWebhookReplay({ paths: [dir], forwardTo: await deadUrl() }, ctx)).toBe(1);
    expect(ctx.io.stderrText().match(/not forwarded to/g)).toHaveLength(1);
    expect(ctx.io.stderrText()).toMatch(
      /replayed 3 notifications: 0 forwarded, 1 failed, 2 not sent \(the app could not be reached: stopped\)/,
    );
    expect(await readdir(dir)).toHaveLength(6);
  });

  it('refuses bad input before sending anything', async () => {
    const dir = await tempDir();
    const ctx = fakeContext({ env: { TRK_STATE_DIR: dir } });
    await expect(runWebhookReplay({ paths: [dir] }, ctx)).rejects.toThrow(/--forward-to is required/);
    await expect(runWebhookReplay({ paths: [dir], forwardTo: 'ftp://x' }, ctx)).rejects.toBeInstanceOf(UsageError);
    await expect(
      runWebhookReplay({ paths: [path.join(dir, 'missing')], forwardTo: 'http://127.0.0.1:9/' }, ctx),
    ).rejects.toThrow(/cannot read .*missing: no such file or folder/);
    await expect(runWebhookReplay({ paths: [dir], forwardTo: 'http://127.0.0.1:9/' }, ctx)).rejects.toThrow(
      /no saved notifications in/,
    );
    await writeFile(path.join(dir, 'notes.txt'), 'x');
    await expect(
      runWebhookReplay({ paths: [path.join(dir, 'notes.txt')], forwardTo: 'http://127.0.0.1:9/' }, ctx),
    ).rejects.toThrow(/is not a saved notification/);
  });
});

describe('trk webhook listen --forward-to', () => {
  it('names what earlier runs left in the queue, and keeps what it could not forward in the state folder', async () => {
    const state = await tempDir();
    const { dir } = await leftInQueue(state, ['AA000000001BR']);
    const down = { url: await deadUrl() };
    const ctx = fakeContext({ settings: { apiKey: KEY }, env: { TRK_STATE_DIR: state } });
    const done = runWebhookListen({ port: 0, forwardTo: down.url }, ctx);
    await until(() => /Listening on \S+/.test(ctx.io.stderrText()));
    const url = /Listening on (\S+)/.exec(ctx.io.stderrText())![1]!;
    const replay = `trk webhook replay ${dir} --forward-to ${down.url}`;
    const earlier = `1 notification not forwarded by an earlier run: ${replay}`;
    await until(() => ctx.io.stderrText().includes(earlier));
    const body = stopped('AA000000009BR');
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { sign: sha(body) },
    });
    await res.body.dump();
    await until(() => /not forwarded to .*AA000000009BR|AA000000009BR not forwarded/.test(ctx.io.stderrText()));
    ctx.interrupt();
    expect(await done).toBe(0);
    expect(ctx.io.stderrText()).toMatch(/stopped: 1 notification, 0 refused; 0 forwarded, 1 failed/);
    const kept = (await readdir(path.join(state, 'webhook-queue')))
      .map((n) => path.join(state, 'webhook-queue', n))
      .filter((d) => d !== dir);
    expect(kept).toHaveLength(1);
    expect(ctx.io.stderrText()).toContain(
      `1 notification not forwarded is kept in ${kept[0]}: trk webhook replay ${kept[0]} --forward-to ${down.url}`,
    );
  });
});

import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWebhookListen } from '../../src/commands/webhook/listen.js';
import { runWebhookVerify } from '../../src/commands/webhook/verify.js';
import { CredentialsError, UsageError } from '../../src/core/errors.js';
import { rawMember } from '../../src/webhook/raw-json.js';
import { fakeContext } from '../fake-context.js';
import { fixtureBytes } from '../fixture-files.js';
import { until } from './app.js';

const KEY = 'cmd-test-key';
const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const BODY = fixtureBytes('doc-v2/webhook_tracking_stopped.json'); // pretty-printed, as it is on disk
const SIGN = sha(Buffer.concat([BODY, Buffer.from(`/${KEY}`)]));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'trk-webhook-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string | Buffer): Promise<string> {
  const p = path.join(dir, name);
  await writeFile(p, content);
  return p;
}

describe('trk webhook verify', () => {
  it('exits 0 for a genuine v2 body and 1 for a bad sign', async () => {
    const body = await file('stopped.json', BODY);
    const ok = fakeContext({ settings: { apiKey: KEY } });
    expect(await runWebhookVerify({ body, sign: SIGN }, ok)).toBe(0);
    expect(ok.io.stderrText()).toMatch(/^genuine/);
    expect(ok.io.stdoutText()).toBe('');
    const bad = fakeContext({ settings: { apiKey: 'other' } });
    expect(await runWebhookVerify({ body, sign: SIGN }, bad)).toBe(1);
    expect(bad.io.stderrText()).toMatch(/not genuine/);
  });

  it('reads the body from stdin with -', async () => {
    const ctx = fakeContext({ settings: { apiKey: KEY } });
    Object.assign(ctx, { io: { ...ctx.io, stdin: Readable.from([BODY.subarray(0, 10), BODY.subarray(10)]) } });
    expect(await runWebhookVerify({ body: '-', sign: SIGN }, ctx)).toBe(0);
  });

  it('points at a line ending added to the saved body', async () => {
    const compact =
      '{"event":"TRACKING_STOPPED","data":{"number":"AA123456789BR","carrier":2151,"param":null,"tag":""}}';
    const body = await file('with-newline.json', `${compact}\n`);
    const ctx = fakeContext({ settings: { apiKey: KEY } });
    expect(await runWebhookVerify({ body, sign: sha(`${compact}/${KEY}`) }, ctx)).toBe(1);
    expect(ctx.io.stderrText()).toMatch(/would match without the line ending/);
  });

  it('applies the v1 rule to a body carrying its sign, with or without --v1', async () => {
    const text = fixtureBytes('webhooks/v1-tracking-updated.json').toString('utf8');
    const resigned = text.replace(
      /"sign":"[0-9a-f]+"/,
      `"sign":"${sha(`TRACKING_UPDATED/${rawMember(text, 'data')}/${KEY}`)}"`,
    );
    const good = await file('v1.json', resigned);
    const original = await file('v1-original.json', text);
    expect(await runWebhookVerify({ body: good }, fakeContext({ settings: { apiKey: KEY } }))).toBe(0);
    expect(await runWebhookVerify({ body: good, v1: true }, fakeContext({ settings: { apiKey: KEY } }))).toBe(0);
    expect(await runWebhookVerify({ body: original, v1: true }, fakeContext({ settings: { apiKey: KEY } }))).toBe(1);
  });

  it('needs --sign for a v2 body, a readable file and a key', async () => {
    const body = await file('stopped2.json', BODY);
    await expect(runWebhookVerify({ body }, fakeContext({ settings: { apiKey: KEY } }))).rejects.toBeInstanceOf(
      UsageError,
    );
    await expect(runWebhookVerify({ body: path.join(dir, 'missing.json'), sign: SIGN }, fakeContext())).rejects.toThrow(
      /no such file/,
    );
    await expect(
      runWebhookVerify({ body, sign: SIGN }, fakeContext({ settings: { apiKey: undefined } })),
    ).rejects.toBeInstanceOf(CredentialsError);
  });

  it('uses the emulator key with --sandbox', async () => {
    const body = await file('sandbox.json', BODY);
    const sign = sha(Buffer.concat([BODY, Buffer.from('/sandbox-key')]));
    expect(
      await runWebhookVerify({ body, sign }, fakeContext({ settings: { sandbox: true, apiKey: undefined } })),
    ).toBe(0);
  });
});

describe('trk webhook listen', () => {
  it('prints its URL, takes notifications in, and stops cleanly on Ctrl-C', async () => {
    const ctx = fakeContext({ settings: { apiKey: KEY }, global: { output: 'json' } });
    const done = runWebhookListen({ port: 0, path: '/in' }, ctx);
    await until(() => /Listening on \S+/.test(ctx.io.stderrText()));
    const url = /Listening on (\S+)/.exec(ctx.io.stderrText())![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/in$/);
    const res = await request(url, { method: 'POST', body: BODY, headers: { sign: SIGN } });
    await res.body.dump();
    expect(res.statusCode).toBe(200);
    await until(() => ctx.io.stdoutText() !== '');
    ctx.interrupt();
    expect(await done).toBe(0);
    expect(JSON.parse(ctx.io.stdoutText())).toMatchObject({
      event: 'TRACKING_STOPPED',
      number: 'AA123456789BR',
      verified: true,
    });
    expect(ctx.io.stderrText()).toMatch(/stopped: 1 notification, 0 refused/);
    await expect(request(url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('refuses bad flags and a missing key before listening', async () => {
    const ctx = fakeContext({ settings: { apiKey: KEY } });
    await expect(runWebhookListen({ port: '70000' }, ctx)).rejects.toBeInstanceOf(UsageError);
    await expect(runWebhookListen({ port: 0, forwardTo: 'ftp://x' }, ctx)).rejects.toBeInstanceOf(UsageError);
    await expect(runWebhookListen({ port: 0, forwardTo: 'not a url' }, ctx)).rejects.toBeInstanceOf(UsageError);
    await expect(
      runWebhookListen({ port: 0 }, fakeContext({ settings: { apiKey: undefined } })),
    ).rejects.toBeInstanceOf(CredentialsError);
  });
});

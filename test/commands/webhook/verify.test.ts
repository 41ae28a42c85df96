// trk webhook verify: a saved notification checked against its sign, from a file or stdin, v1 and v2 rules.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWebhookVerify } from '../../../src/commands/webhook/verify.js';
import { CredentialsError, UsageError } from '../../../src/core/errors.js';
import { rawMember } from '../../../src/webhook/raw-json.js';
import { fakeContext } from '../../fake-context.js';
import { fixtureBytes } from '../../fixture-files.js';
import { BODY, KEY, SIGN, sha } from './signed-body.js';

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

// trk webhook listen: its URL, notifications taken in, Ctrl-C, and what it refuses before listening (the listener
// itself, request by request, is test/webhook/listen.test.ts).
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runWebhookListen } from '../../../src/commands/webhook/listen.js';
import { CredentialsError, UsageError } from '../../../src/core/errors.js';
import { fakeContext } from '../../fake-context.js';
import { until } from '../../webhook/app.js';
import { BODY, KEY, SIGN } from './signed-body.js';

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

// trk notify's settings through the settings registry: `trk config set` checks them, `config list` and `get` show
// the mail server's address without its password, and it is never printed anywhere else either.

import { expect, it } from 'vitest';
import { baseEnv, trk } from '../e2e/helpers.js';

it('checks smtp-url, smtp-from, tracking-url and notify-pace, and never shows the mail password', async () => {
  const env = baseEnv();
  const set = (key: string, value: string) => trk(['config', 'set', key, value, '--create'], { env });
  for (const [key, value, message] of [
    ['smtp-url', 'ftp://mail.example.com', /smtp-url must be an smtp:\/\/ or smtps:\/\/ address/],
    ['smtp-from', 'not an address', /smtp-from is not a mail address/],
    ['tracking-url', 'https://shop.example/track', /must be an http\(s\) address with {number}/],
    ['notify-pace', '0', /notify-pace must be a number of messages a second above 0/],
  ] as const) {
    const r = await set(key, value);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
  }
  const secret = 'pa55word-of-the-mail-server';
  const saved = await set('smtp-url', `smtps://shop:${secret}@mail.example.com:465`);
  expect(saved.code, saved.stderr).toBe(0);
  expect((await set('notify-pace', '1.5')).code).toBe(0);
  const list = await trk(['config', 'list', '--json'], { env });
  const get = await trk(['config', 'get', 'smtp-url'], { env });
  for (const r of [saved, list, get]) expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
  const shown = JSON.parse(list.stdout) as Record<string, { value: string | null; source: string }>;
  expect(shown['smtp-url']).toEqual({ value: 'smtps://shop:***@mail.example.com:465', source: 'profile' });
  expect(shown['notify-pace']).toEqual({ value: '1.5', source: 'profile' });
  expect(get.stdout).toBe('smtps://shop:***@mail.example.com:465\n');
  const fromEnv = await trk(['config', 'get', 'smtp-from', '--json'], {
    env: { ...env, TRK_SMTP_FROM: 'Shop <shop@example.com>' },
  });
  expect(JSON.parse(fromEnv.stdout)).toEqual({ key: 'smtp-from', value: 'Shop <shop@example.com>', source: 'env' });
});

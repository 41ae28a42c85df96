// trk config set against a real profile file in a temporary folder: what it writes and what it refuses.
import { describe, expect, it } from 'vitest';
import { runConfigGet } from '../../../src/commands/config/get.js';
import { runConfigSet } from '../../../src/commands/config/set.js';
import { openProfileStore } from '../../../src/config/profiles.js';
import { createFake } from '../../fake-context.js';
import { tempEnv } from '../temp-config.js';

describe('trk config set', () => {
  it('writes the profile, made on purpose only (--create) on a fresh install', async () => {
    const env = tempEnv();
    const fake = createFake({ env });
    // A fresh install has no profile: "default" is made on purpose only.
    await expect(runConfigSet({ key: 'base-url', value: 'http://127.0.0.1:8080/' }, fake.ctx)).rejects.toMatchObject({
      hint: 'add --create to create profile "default"',
    });
    expect(openProfileStore(env).list()).toEqual([]);
    await runConfigSet({ key: 'base-url', value: 'http://127.0.0.1:8080/', create: true }, fake.ctx);
    expect(openProfileStore(env).get('default')).toEqual({ baseUrl: 'http://127.0.0.1:8080' });
  });

  it('refuses the API key, unknown keys and bad values', async () => {
    const fake = createFake({ env: tempEnv() });
    await expect(runConfigSet({ key: 'api-key', value: 'x' }, fake.ctx)).rejects.toThrow(/not set with "trk config"/);
    await expect(runConfigSet({ key: 'colour', value: 'x' }, fake.ctx)).rejects.toThrow(/unknown setting "colour"/);
    await expect(runConfigSet({ key: 'api-version', value: 'v9' }, fake.ctx)).rejects.toMatchObject({ exitCode: 2 });
    await expect(runConfigGet({ key: 'colour' }, fake.ctx)).rejects.toMatchObject({ exitCode: 2 });
  });
});

// trk config unset against a real profile file: a setting removed from the profile, its default in force again.
import { describe, expect, it } from 'vitest';
import { runConfigUnset } from '../../../src/commands/config/unset.js';
import { openProfileStore } from '../../../src/config/profiles.js';
import { createFake } from '../../fake-context.js';
import { tempEnv } from '../temp-config.js';

describe('trk config unset', () => {
  it('removes the setting from the profile and keeps the others; a setting not set is said so', async () => {
    const env = tempEnv();
    openProfileStore(env).set('default', { output: 'json', baseUrl: 'http://127.0.0.1:1' });
    const fake = createFake({ env });
    expect(await runConfigUnset({ key: 'output' }, fake.ctx)).toBe(0);
    expect(openProfileStore(env).get('default')).toEqual({ baseUrl: 'http://127.0.0.1:1' });
    expect(fake.io.stderrText()).toContain('removed output from profile "default"');
    const again = createFake({ env });
    expect(await runConfigUnset({ key: 'output' }, again.ctx)).toBe(0);
    expect(again.io.stderrText()).toContain('output is not set in profile "default"');
  });

  it('refuses the API key and unknown settings, exit 2, changing nothing', async () => {
    const env = tempEnv();
    openProfileStore(env).set('default', { apiKey: 'k'.repeat(32) });
    const fake = createFake({ env });
    await expect(runConfigUnset({ key: 'api-key' }, fake.ctx)).rejects.toMatchObject({ exitCode: 2 });
    await expect(runConfigUnset({ key: 'colour' }, fake.ctx)).rejects.toThrow(/unknown setting "colour"/);
    expect(openProfileStore(env).get('default')).toEqual({ apiKey: 'k'.repeat(32) });
  });
});

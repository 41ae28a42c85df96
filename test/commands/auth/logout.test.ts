// trk auth logout: the profile removed with its key and settings, from a real profile file.
import { describe, expect, it } from 'vitest';
import { runAuthLogout } from '../../../src/commands/auth/logout.js';
import { openProfileStore } from '../../../src/config/profiles.js';
import { createFake } from '../../fake-context.js';
import { tempEnv } from '../temp-config.js';

describe('trk auth logout', () => {
  it('logout removes the profile with its key and settings', async () => {
    const env = tempEnv();
    openProfileStore(env).set('default', { apiKey: 'k'.repeat(32), baseUrl: 'http://127.0.0.1:1' });
    const fake = createFake({ env });
    expect(await runAuthLogout({}, fake.ctx)).toBe(0);
    expect(openProfileStore(env).get('default')).toBeUndefined();
    expect(fake.io.stderrText()).toContain('removed profile "default" with its key and settings');
  });
});

// trk auth switch: a saved profile made the active one; a name that is no profile refused.
import { describe, expect, it } from 'vitest';
import { runAuthSwitch } from '../../../src/commands/auth/switch.js';
import { openProfileStore } from '../../../src/config/profiles.js';
import { createFake } from '../../fake-context.js';
import { tempEnv } from '../temp-config.js';

function twoProfiles() {
  const env = tempEnv();
  const store = openProfileStore(env);
  store.set('default', { apiKey: 'k'.repeat(32) });
  store.set('shop-eu', { apiKey: 'e'.repeat(32) });
  store.setCurrent('default');
  return env;
}

describe('trk auth switch', () => {
  it('makes the profile named the active one', async () => {
    const env = twoProfiles();
    const fake = createFake({ env });
    expect(await runAuthSwitch({ name: 'shop-eu' }, fake.ctx)).toBe(0);
    expect(openProfileStore(env).currentName()).toBe('shop-eu');
    expect(fake.io.stderrText()).toContain('shop-eu');
  });

  it('refuses an unknown name listing the saved ones, and no name off a terminal; the active one stays', async () => {
    const env = twoProfiles();
    const fake = createFake({ env });
    await expect(runAuthSwitch({ name: 'nope' }, fake.ctx)).rejects.toMatchObject({ exitCode: 2 });
    await expect(runAuthSwitch({ name: 'nope' }, fake.ctx)).rejects.toThrow(/nope/);
    await expect(runAuthSwitch({}, fake.ctx)).rejects.toMatchObject({ exitCode: 2 });
    expect(openProfileStore(env).currentName()).toBe('default');
    const none = createFake({ env: tempEnv() });
    await expect(runAuthSwitch({ name: 'default' }, none.ctx)).rejects.toThrow(/no profile is saved yet/);
  });
});

// trk config get: one setting's value as the settings resolve it.
import { describe, expect, it } from 'vitest';
import { runConfigGet } from '../../../src/commands/config/get.js';
import { createFake, fakeSettings } from '../../fake-context.js';

describe('trk config get', () => {
  it('prints the value of the setting in force', async () => {
    const get = createFake({ settings: { ...fakeSettings('v2', undefined), baseUrl: 'http://x.test' } });
    await runConfigGet({ key: 'base-url' }, get.ctx);
    expect(get.io.stdoutText()).toBe('http://x.test\n');
  });
});

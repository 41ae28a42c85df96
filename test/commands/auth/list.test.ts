// trk auth list: the saved profiles of a real profile file, the active one marked, keys masked.
import { describe, expect, it } from 'vitest';
import { runAuthList } from '../../../src/commands/auth/list.js';
import { openProfileStore } from '../../../src/config/profiles.js';
import { createFake } from '../../fake-context.js';
import { tempEnv } from '../temp-config.js';

describe('trk auth list', () => {
  it('prints each profile with its settings or their defaults, the active one marked, the key masked', async () => {
    const env = tempEnv();
    const store = openProfileStore(env);
    store.set('shop-eu', { apiKey: `${'a'.repeat(28)}wxyz`, apiVersion: 'v2.1', baseUrl: 'http://127.0.0.1:1' });
    store.set('staging', { output: 'json' });
    store.setCurrent('shop-eu');
    const fake = createFake({ env, global: { output: 'json' } });
    expect(await runAuthList({}, fake.ctx)).toBe(0);
    const rows = JSON.parse(fake.io.stdoutText()) as Record<string, unknown>[];
    expect(rows.map((r) => [r.name, r.active, r.api_version, r.api_key, r.output])).toEqual([
      ['shop-eu', true, 'v2.1', '****wxyz', null],
      ['staging', false, 'v2', null, 'json'],
    ]);
    expect(fake.io.stdoutText()).not.toContain('a'.repeat(28));
  });

  it('with no profile saved prints an empty list and says how to log in', async () => {
    const fake = createFake({ env: tempEnv(), global: { output: 'json' } });
    expect(await runAuthList({}, fake.ctx)).toBe(0);
    expect(JSON.parse(fake.io.stdoutText())).toEqual([]);
    expect(fake.io.stderrText()).toContain('log in with "trk auth login"');
  });
});

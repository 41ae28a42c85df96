// trk auth status: the key checked with getquota, each setting with its source, the key masked.
import { describe, expect, it } from 'vitest';
import { runAuthStatus } from '../../../src/commands/auth/status.js';
import { createFake } from '../../fake-context.js';

describe('trk auth status', () => {
  it('status checks the key with getquota, then prints each setting with its source and the key masked', async () => {
    const fake = createFake({ global: { output: 'json' } });
    expect(await runAuthStatus({}, fake.ctx)).toBe(0);
    expect(fake.calls.map((c) => c.op)).toEqual(['getquota']);
    const out = JSON.parse(fake.io.stdoutText()) as Record<string, unknown>;
    expect(out['api-key']).toEqual({ value: '****cdef', source: 'env' });
    expect(out['base-url']).toEqual({ value: 'http://127.0.0.1:9', source: 'default' });
    expect(out.check).toEqual({ valid: true, quota_remain: 90 });
    expect(fake.io.stdoutText()).not.toContain('test-key-0123456789abcdef');
    expect(fake.io.stderrText()).toContain('key valid, 90 units left');
  });

  it('status --offline sends nothing', async () => {
    const fake = createFake({ global: { output: 'json' } });
    expect(await runAuthStatus({ offline: true }, fake.ctx)).toBe(0);
    expect(fake.calls).toEqual([]);
    expect((JSON.parse(fake.io.stdoutText()) as { check: unknown }).check).toBeNull();
  });

  it('status without a key exits 4 and prints nothing on stdout', async () => {
    const fake = createFake({ apiKey: undefined });
    await expect(runAuthStatus({}, fake.ctx)).rejects.toMatchObject({ exitCode: 4 });
    expect(fake.io.stdoutText()).toBe('');
    expect(fake.calls).toEqual([]);
  });
});

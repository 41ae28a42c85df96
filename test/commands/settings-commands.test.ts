// auth and config against a real profile file in a temporary folder; help topics.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { runAuthLogin } from '../../src/commands/auth/login.js';
import { runAuthLogout } from '../../src/commands/auth/logout.js';
import { runAuthStatus } from '../../src/commands/auth/status.js';
import { runConfigGet } from '../../src/commands/config/get.js';
import { runConfigList } from '../../src/commands/config/list.js';
import { runConfigSet } from '../../src/commands/config/set.js';
import { exitCodeText, runHelp } from '../../src/commands/help/help.js';
import { openProfileStore } from '../../src/config/profiles.js';
import { EXIT_CODE_HELP } from '../../src/core/exit-codes.js';
import { createFake, fakeSettings } from '../fake-context.js';

const tempEnv = () => ({ TRK_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'trk-cfg-')) });

describe('auth', () => {
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

  it('login without a terminal and without --with-key-stdin is a usage error', async () => {
    const fake = createFake({ env: tempEnv() });
    await expect(runAuthLogin({ withKeyStdin: false }, fake.ctx)).rejects.toMatchObject({ exitCode: 2 });
  });

  it('login refuses an empty key on stdin before any request', async () => {
    const fake = createFake({ env: tempEnv(), stdin: '\n' });
    await expect(runAuthLogin({ withKeyStdin: true }, fake.ctx)).rejects.toThrow(/the key on stdin is empty/);
  });

  it('logout removes the profile with its key and settings', async () => {
    const env = tempEnv();
    openProfileStore(env).set('default', { apiKey: 'k'.repeat(32), baseUrl: 'http://127.0.0.1:1' });
    const fake = createFake({ env });
    expect(await runAuthLogout({}, fake.ctx)).toBe(0);
    expect(openProfileStore(env).get('default')).toBeUndefined();
    expect(fake.io.stderrText()).toContain('removed profile "default" with its key and settings');
  });
});

describe('config', () => {
  it('set writes the profile; get and list read the settings', async () => {
    const env = tempEnv();
    const fake = createFake({ env });
    // A fresh install has no profile: "default" is made on purpose only.
    await expect(runConfigSet({ key: 'base-url', value: 'http://127.0.0.1:8080/' }, fake.ctx)).rejects.toMatchObject({
      hint: 'add --create to create profile "default"',
    });
    expect(openProfileStore(env).list()).toEqual([]);
    await runConfigSet({ key: 'base-url', value: 'http://127.0.0.1:8080/', create: true }, fake.ctx);
    expect(openProfileStore(env).get('default')).toEqual({ baseUrl: 'http://127.0.0.1:8080' });

    const get = createFake({ settings: { ...fakeSettings('v2', undefined), baseUrl: 'http://x.test' } });
    await runConfigGet({ key: 'base-url' }, get.ctx);
    expect(get.io.stdoutText()).toBe('http://x.test\n');

    const list = createFake({ global: { output: 'csv' } });
    await runConfigList({}, list.ctx);
    expect(list.io.stdoutText().split(/\r?\n/)[0]).toBe('key,value,source');
  });

  it('refuses the API key, unknown keys and bad values', async () => {
    const fake = createFake({ env: tempEnv() });
    await expect(runConfigSet({ key: 'api-key', value: 'x' }, fake.ctx)).rejects.toThrow(/not set with "trk config"/);
    await expect(runConfigSet({ key: 'colour', value: 'x' }, fake.ctx)).rejects.toThrow(/unknown setting "colour"/);
    await expect(runConfigSet({ key: 'api-version', value: 'v9' }, fake.ctx)).rejects.toMatchObject({ exitCode: 2 });
    await expect(runConfigGet({ key: 'colour' }, fake.ctx)).rejects.toMatchObject({ exitCode: 2 });
  });
});

describe('help', () => {
  it('exit-codes lists every code of the table', async () => {
    const fake = createFake();
    await runHelp({ topic: ['exit-codes'], program: new Command('trk') }, fake.ctx);
    expect(fake.io.stdoutText()).toBe(exitCodeText());
    for (const [code, text] of EXIT_CODE_HELP)
      expect(fake.io.stdoutText().replace(/\s+/g, ' ')).toContain(`${code} ${text}`);
  });

  it('an unknown topic is a usage error', async () => {
    const fake = createFake();
    await expect(runHelp({ topic: ['nope'], program: new Command('trk') }, fake.ctx)).rejects.toMatchObject({
      exitCode: 2,
    });
  });
});

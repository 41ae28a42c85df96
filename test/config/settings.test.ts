import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIG_KEYS,
  checkConfigKey,
  maskKey,
  resolveSettings,
  validateConfigValue,
  type Profile,
  type ProfileReader,
} from '../../src/config/settings.js';
import { CredentialsError, UsageError } from '../../src/core/errors.js';

function memoryStore(profiles: Record<string, Profile>, current?: string): ProfileReader {
  return { get: (name) => profiles[name], currentName: () => current, list: () => Object.keys(profiles).sort() };
}

const KEY_A = 'AAAAaaaaAAAAaaaaAAAAaaaaAAAAaaaa';
const KEY_B = 'BBBBbbbbBBBBbbbbBBBBbbbbBBBBbbbb';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'trk-settings-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('resolveSettings', () => {
  it('defaults when nothing is configured', () => {
    const s = resolveSettings({ flags: {}, env: {} });
    expect(s).toEqual({
      profile: 'default',
      baseUrl: 'https://api.17track.net',
      apiVersion: 'v2',
      apiKey: undefined,
      resUrl: 'https://res.17track.net',
      budgetUrl: undefined,
      db: undefined,
      sandbox: false,
      output: undefined,
      savedProfiles: [],
      smtpUrl: undefined,
      smtpFrom: undefined,
      trackingUrl: undefined,
      notifyPace: undefined,
      sources: {
        profile: 'default',
        baseUrl: 'default',
        apiVersion: 'default',
        apiKey: 'default',
        resUrl: 'default',
        output: 'default',
        budgetUrl: 'default',
        db: 'default',
        smtpUrl: 'default',
        smtpFrom: 'default',
        trackingUrl: 'default',
        notifyPace: 'default',
      },
    });
  });

  it('profile values beat defaults; the current profile is used', () => {
    const store = memoryStore(
      {
        work: {
          baseUrl: 'https://work.test/',
          apiVersion: 'v1',
          apiKey: KEY_A,
          resUrl: 'https://res.work.test',
          budgetUrl: 'redis://budget.work.test:6379/2',
          db: 'work.db',
          smtpUrl: 'smtp://shop:pw@mail.work.test:587',
          notifyPace: '2',
        },
      },
      'work',
    );
    const s = resolveSettings({ flags: {}, env: {}, store });
    expect(s.profile).toBe('work');
    expect(s.baseUrl).toBe('https://work.test');
    expect(s.apiVersion).toBe('v1');
    expect(s.apiKey).toBe(KEY_A);
    expect(s.resUrl).toBe('https://res.work.test');
    expect(s.budgetUrl).toBe('redis://budget.work.test:6379/2');
    expect(s.db).toBe('work.db');
    expect([s.smtpUrl, s.notifyPace]).toEqual(['smtp://shop:pw@mail.work.test:587', 2]);
    expect(s.sources).toEqual({
      profile: 'profile',
      baseUrl: 'profile',
      apiVersion: 'profile',
      apiKey: 'profile',
      resUrl: 'profile',
      output: 'default',
      budgetUrl: 'profile',
      db: 'profile',
      smtpUrl: 'profile',
      smtpFrom: 'default',
      trackingUrl: 'default',
      notifyPace: 'profile',
    });
    expect(s.savedProfiles).toEqual(['work']);
  });

  it('environment beats profile', () => {
    const store = memoryStore(
      { work: { baseUrl: 'https://work.test', apiVersion: 'v1', apiKey: KEY_A }, ci: {} },
      'work',
    );
    const s = resolveSettings({
      flags: {},
      env: {
        TRK_PROFILE: 'ci',
        TRK_BASE_URL: 'http://127.0.0.1:8080',
        TRK_API_VERSION: 'v2.1',
        TRK_API_KEY: KEY_B,
        TRK_RES_URL: 'http://127.0.0.1:8081',
        TRK_BUDGET_URL: 'rediss://:pw@10.0.0.5:6380/1',
        TRK_DB: '/srv/trk/shop.db',
        TRK_SMTP_FROM: 'shop@example.com',
        TRK_TRACKING_URL: 'https://shop.example/t/{number}',
      },
      store,
    });
    expect(s.profile).toBe('ci');
    expect(s.budgetUrl).toBe('rediss://:pw@10.0.0.5:6380/1');
    expect([s.baseUrl, s.apiVersion, s.apiKey, s.resUrl]).toEqual([
      'http://127.0.0.1:8080',
      'v2.1',
      KEY_B,
      'http://127.0.0.1:8081',
    ]);
    expect(s.db).toBe('/srv/trk/shop.db');
    expect(s.sources).toEqual({
      profile: 'env',
      baseUrl: 'env',
      apiVersion: 'env',
      apiKey: 'env',
      resUrl: 'env',
      output: 'default',
      budgetUrl: 'env',
      db: 'env',
      smtpUrl: 'default',
      smtpFrom: 'env',
      trackingUrl: 'env',
      notifyPace: 'default',
    });
    // The environment also beats the profile chosen by the environment.
    const s2 = resolveSettings({ flags: {}, env: { TRK_PROFILE: 'work', TRK_API_VERSION: 'v2' }, store });
    expect([s2.baseUrl, s2.apiVersion, s2.sources.apiVersion, s2.sources.baseUrl]).toEqual([
      'https://work.test',
      'v2',
      'env',
      'profile',
    ]);
  });

  it('flags beat environment', () => {
    const store = memoryStore({ other: { baseUrl: 'https://other.test', apiKey: KEY_A } });
    const s = resolveSettings({
      flags: { profile: 'other', baseUrl: 'https://flag.test', apiVersion: 'v1' },
      env: { TRK_PROFILE: 'ci', TRK_BASE_URL: 'https://env.test', TRK_API_VERSION: 'v2.1' },
      store,
    });
    expect([s.profile, s.baseUrl, s.apiVersion, s.apiKey]).toEqual(['other', 'https://flag.test', 'v1', KEY_A]);
    expect(s.sources).toMatchObject({ profile: 'flag', baseUrl: 'flag', apiVersion: 'flag', apiKey: 'profile' });
  });

  it('empty variables count as unset', () => {
    const s = resolveSettings({ flags: {}, env: { TRK_API_KEY: '', TRK_BASE_URL: ' ', TRK_PROFILE: '' } });
    expect(s.sources).toMatchObject({ apiKey: 'default', baseUrl: 'default', profile: 'default' });
  });

  it('reads TRK_API_KEY_FILE, trimmed; TRK_API_KEY wins over it', () => {
    const file = path.join(tmp, 'key');
    writeFileSync(file, `  ${KEY_B}\n`);
    const s = resolveSettings({
      flags: {},
      env: { TRK_API_KEY_FILE: file },
      store: memoryStore({ default: { apiKey: KEY_A } }),
    });
    expect(s.apiKey).toBe(KEY_B);
    expect(s.sources.apiKey).toBe('env');
    expect(resolveSettings({ flags: {}, env: { TRK_API_KEY_FILE: file, TRK_API_KEY: KEY_A } }).apiKey).toBe(KEY_A);
    // A missing key file does not matter while TRK_API_KEY is set.
    expect(
      resolveSettings({ flags: {}, env: { TRK_API_KEY_FILE: path.join(tmp, 'nope'), TRK_API_KEY: KEY_A } }).apiKey,
    ).toBe(KEY_A);
  });

  it('an unreadable or empty key file is a credentials error that does not show the key', () => {
    const missing = path.join(tmp, 'missing');
    expect(() => resolveSettings({ flags: {}, env: { TRK_API_KEY_FILE: missing } })).toThrow(CredentialsError);
    expect(() => resolveSettings({ flags: {}, env: { TRK_API_KEY_FILE: missing } })).toThrow('ENOENT');
    const empty = path.join(tmp, 'empty');
    writeFileSync(empty, '\n');
    expect(() => resolveSettings({ flags: {}, env: { TRK_API_KEY_FILE: empty } })).toThrow(/empty/);
    if (process.getuid?.() !== 0) {
      const locked = path.join(tmp, 'locked');
      writeFileSync(locked, KEY_A);
      chmodSync(locked, 0o000);
      expect(() => resolveSettings({ flags: {}, env: { TRK_API_KEY_FILE: locked } })).toThrow(CredentialsError);
    }
    try {
      resolveSettings({ flags: {}, env: { TRK_API_KEY: 'has space inside' } });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CredentialsError);
      expect((err as Error).message).not.toContain('has space');
    }
  });

  it('validates the API version and the base URL, naming the source', () => {
    expect(() => resolveSettings({ flags: { apiVersion: 'v3' }, env: {} })).toThrow(UsageError);
    try {
      resolveSettings({ flags: {}, env: { TRK_API_VERSION: 'v3' } });
      expect.unreachable();
    } catch (err) {
      expect((err as UsageError).toLine()).toBe('unknown API version "v3" (TRK_API_VERSION): use one of v1, v2, v2.1');
    }
    expect(() => resolveSettings({ flags: { baseUrl: 'ftp://x.test' }, env: {} })).toThrow(/http or https/);
    expect(() => resolveSettings({ flags: { baseUrl: 'not a url' }, env: {} })).toThrow(/--base-url is not a URL/);
    expect(() => resolveSettings({ flags: { baseUrl: 'https://api.17track.net/track/v2' }, env: {} })).toThrow(
      /API path/,
    );
    const store = memoryStore({ bad: { apiVersion: 'v9' as 'v2' } });
    expect(() => resolveSettings({ flags: { profile: 'bad' }, env: {}, store })).toThrow(/profile "bad"/);
  });

  it('output: the flag, TRK_OUTPUT, the profile, else automatic; a wrong value names its source', () => {
    const store = memoryStore({ work: { output: 'json' } }, 'work');
    expect([
      resolveSettings({ flags: {}, env: {}, store }).output,
      resolveSettings({ flags: {}, env: {}, store }).sources.output,
    ]).toEqual(['json', 'profile']);
    const env = resolveSettings({ flags: {}, env: { TRK_OUTPUT: 'CSV' }, store });
    expect([env.output, env.sources.output]).toEqual(['csv', 'env']);
    const flag = resolveSettings({ flags: { output: 'ndjson' }, env: { TRK_OUTPUT: 'csv' }, store });
    expect([flag.output, flag.sources.output]).toEqual(['ndjson', 'flag']);
    expect(resolveSettings({ flags: {}, env: {} }).output).toBeUndefined();
    expect(() => resolveSettings({ flags: {}, env: { TRK_OUTPUT: 'yaml' } })).toThrow(
      'unknown output format "yaml" (TRK_OUTPUT)',
    );
    const bad = memoryStore({ work: { output: 'xml' as 'json' } }, 'work');
    expect(() => resolveSettings({ flags: {}, env: {}, store: bad })).toThrow('(output of profile "work")');
  });

  it('sandbox: the flag or a profile named sandbox', () => {
    expect(resolveSettings({ flags: { sandbox: true }, env: {} }).sandbox).toBe(true);
    expect(resolveSettings({ flags: { profile: 'sandbox' }, env: {} }).sandbox).toBe(true);
    expect(resolveSettings({ flags: {}, env: { TRK_PROFILE: 'sandbox' } }).sandbox).toBe(true);
    expect(resolveSettings({ flags: {}, env: {} }).sandbox).toBe(false);
  });

  it('--sandbox uses the profile "sandbox" over the environment\'s and the active one; --profile wins', () => {
    const store = memoryStore({ work: { apiVersion: 'v1' }, sandbox: { carrierAliases: { DHL: 7041 } } }, 'work');
    const s = resolveSettings({ flags: { sandbox: true }, env: { TRK_PROFILE: 'work' }, store });
    expect([s.profile, s.sources.profile, s.apiVersion, s.carrierAliases]).toEqual([
      'sandbox',
      'flag',
      'v2',
      { DHL: 7041 },
    ]);
    const named = resolveSettings({ flags: { sandbox: true, profile: 'work' }, env: {}, store });
    expect([named.profile, named.sandbox, named.apiVersion]).toEqual(['work', true, 'v1']);
  });
});

describe('config keys', () => {
  it('lists the keys and validates each', () => {
    expect(CONFIG_KEYS).toEqual([
      'base-url',
      'api-version',
      'api-key',
      'res-url',
      'output',
      'budget-url',
      'db',
      'smtp-url',
      'smtp-from',
      'tracking-url',
      'notify-pace',
    ]);
    expect(checkConfigKey('base-url')).toBe('base-url');
    expect(() => checkConfigKey('baseurl')).toThrow(UsageError);
    try {
      checkConfigKey('baseurl');
    } catch (err) {
      expect((err as UsageError).toLine()).toBe(
        'unknown setting "baseurl": use one of base-url, api-version, api-key, res-url, output, budget-url, db, ' +
          'smtp-url, smtp-from, tracking-url, notify-pace',
      );
    }
    expect(validateConfigValue('base-url', 'https://x.test/')).toBe('https://x.test');
    expect(validateConfigValue('res-url', 'http://127.0.0.1:9/assets/')).toBe('http://127.0.0.1:9/assets');
    expect(validateConfigValue('api-version', 'v2.1')).toBe('v2.1');
    expect(() => validateConfigValue('api-version', '2')).toThrow(UsageError);
    expect(validateConfigValue('api-key', `  ${KEY_A}\n`)).toBe(KEY_A);
    expect(() => validateConfigValue('api-key', '')).toThrow(UsageError);
    expect(validateConfigValue('output', ' JSON ')).toBe('json');
    expect(() => validateConfigValue('output', 'tsv')).toThrow('unknown output format "tsv" (output)');
    expect(validateConfigValue('budget-url', ' redis://h:6379/0 ')).toBe('redis://h:6379/0');
    expect(() => validateConfigValue('budget-url', 'http://h:6379')).toThrow(
      /must be a redis:\/\/ or rediss:\/\/ address/,
    );
    expect(() => validateConfigValue('budget-url', 'redis://h/x')).toThrow(/database number/);
  });
});

describe('maskKey', () => {
  it('shows the last 4 characters behind stars, so that two keys can be told apart (as Stripe and gh do)', () => {
    expect(maskKey('abcd1234567890123456789012wxyz')).toBe('****wxyz');
    expect(maskKey('0123456789abcdef')).toBe('****cdef');
    expect(maskKey('0123456789ab')).toBe('****89ab');
  });

  it('hides keys too short to keep 8 characters hidden, and never tells the length', () => {
    expect(maskKey('short')).toBe('****');
    expect(maskKey('abc')).toBe('****');
    expect(maskKey('0123456789a')).toBe('****');
  });
});

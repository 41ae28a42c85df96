import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileStore } from '../../src/config/profiles.js';
import { UsageError } from '../../src/core/errors.js';

let tmp: string;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'trk-profiles-'));
  dir = path.join(tmp, 'config');
  env = { TRK_CONFIG_DIR: dir, HOME: tmp };
});

afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('profile store', () => {
  it('writes the file 0600 in a 0700 folder', () => {
    const store = openProfileStore(env);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    store.set('default', { apiKey: 'k'.repeat(32) });
    expect(store.path).toBe(path.join(dir, 'config.json'));
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    // Still 0600 after a rewrite.
    store.set('work', { baseUrl: 'http://127.0.0.1:1' });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  it('get, set (merge and unset), list, remove, current', () => {
    const store = openProfileStore(env);
    expect(store.get('default')).toBeUndefined();
    expect(store.list()).toEqual([]);
    expect(store.currentName()).toBeUndefined();

    store.set('work', { baseUrl: 'https://api.example.test', apiVersion: 'v1' });
    store.set('work', { apiKey: 'KEY' });
    store.set('sandbox.local', { resUrl: 'http://127.0.0.1:2' });
    expect(store.get('work')).toEqual({ baseUrl: 'https://api.example.test', apiVersion: 'v1', apiKey: 'KEY' });
    expect(store.get('sandbox.local')).toEqual({ resUrl: 'http://127.0.0.1:2' });
    expect(store.list()).toEqual(['sandbox.local', 'work']);

    store.set('work', { apiVersion: undefined });
    expect(store.get('work')).toEqual({ baseUrl: 'https://api.example.test', apiKey: 'KEY' });

    store.setCurrent('work');
    expect(store.currentName()).toBe('work');
    // Another opening of the same folder sees the same data.
    expect(openProfileStore(env).get('work')?.apiKey).toBe('KEY');

    expect(store.remove('work')).toBe(true);
    expect(store.remove('work')).toBe(false);
    expect(store.currentName()).toBeUndefined();
    expect(store.list()).toEqual(['sandbox.local']);
  });

  it('stores settings under the names trk config uses', () => {
    const store = openProfileStore(env);
    store.set('default', { baseUrl: 'https://a.test', apiVersion: 'v2.1', apiKey: 'K', resUrl: 'https://r.test' });
    store.setCurrent('default');
    const file = JSON.parse(readFileSync(store.path, 'utf8')) as unknown;
    expect(file).toEqual({
      current: 'default',
      profiles: {
        default: { 'base-url': 'https://a.test', 'api-version': 'v2.1', 'api-key': 'K', 'res-url': 'https://r.test' },
      },
    });
  });

  it('refuses bad profile names', () => {
    const store = openProfileStore(env);
    expect(() => store.set('a/b', {})).toThrow(UsageError);
    expect(() => store.setCurrent('')).toThrow(UsageError);
    expect(() => store.set('-x', {})).toThrow(UsageError);
  });

  it('a broken file gives a UsageError naming the file and the fix, never its content (it holds the key)', () => {
    openProfileStore(env);
    const key = 'SECRETKEY0123456789abcdefSECRETKEY';
    // Cut off in the middle of a write: a parser's message would quote the text around the key.
    writeFileSync(path.join(dir, 'config.json'), `{"profiles":{"default":{"api-key":"${key}" "base-url":1`);
    const err = (() => {
      try {
        openProfileStore(env);
      } catch (e) {
        return e as UsageError;
      }
      throw new Error('expected a failure');
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect(err.toLine()).toBe(
      `the config file ${path.join(dir, 'config.json')} is not valid JSON: correct it in an editor, or move it ` +
        `away and run "trk auth login" to write a new one`,
    );
    expect(err.toLine()).not.toContain('SECRET');
  });
});

describe('profiles read without conf', () => {
  it('reads what the store wrote; a missing file is no profiles and creates nothing', async () => {
    const { readProfiles } = await import('../../src/config/profile-file.js');
    const { existsSync } = await import('node:fs');
    expect(readProfiles(env).list()).toEqual([]);
    expect(readProfiles(env).get('default')).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
    const store = openProfileStore(env);
    store.set('work', { baseUrl: 'https://api.example.test', apiVersion: 'v1', apiKey: 'KEY' });
    store.setCurrent('work');
    const read = readProfiles(env);
    expect(read.currentName()).toBe('work');
    expect(read.get('work')).toEqual(store.get('work'));
    expect(read.get('toString')).toBeUndefined();
    expect(read.list()).toEqual(['work']);
  });

  it('a broken file is named with the fix, never quoted', async () => {
    const { readProfiles } = await import('../../src/config/profile-file.js');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'config.json'), '{"profiles":{"default":{"api-key":"SECRETKEY0123456789" "x"');
    expect(() => readProfiles(env)).toThrow(/^the config file .*config\.json is not valid JSON$/);
  });
});

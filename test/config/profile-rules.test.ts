import { describe, expect, it } from 'vitest';
import { checkKnownProfile, missingKeyError, unknownProfileError } from '../../src/config/profile-rules.js';
import { isKnownProfile } from '../../src/config/settings.js';
import { resolveSettings, type Profile, type ProfileReader } from '../../src/config/settings.js';
import { type CredentialsError, UsageError } from '../../src/core/errors.js';

function store(profiles: Record<string, Profile>, current?: string): ProfileReader {
  return { get: (name) => profiles[name], currentName: () => current, list: () => Object.keys(profiles).sort() };
}

const KEY = 'AAAAaaaaAAAAaaaaAAAAaaaaAAAAaaaa';

function lineOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as UsageError).toLine();
  }
  throw new Error('nothing thrown');
}

describe('known profiles', () => {
  it('saved names are known, and "default" and "sandbox" always', () => {
    const saved = store({ 'shop-eu': { apiKey: KEY } });
    const of = (flags: { profile?: string }, env: NodeJS.ProcessEnv = {}) =>
      resolveSettings({ flags, env, store: saved });
    expect(isKnownProfile(of({ profile: 'shop-eu' }))).toBe(true);
    expect(isKnownProfile(of({}))).toBe(true);
    expect(isKnownProfile(of({ profile: 'sandbox' }))).toBe(true);
    expect(isKnownProfile(of({ profile: 'shop-ue' }))).toBe(false);
    expect(isKnownProfile(of({}, { TRK_PROFILE: 'nosuch' }))).toBe(false);
  });

  it('an unknown name is a usage error that names its source and the saved profiles', () => {
    const saved = store({ 'shop-eu': { apiKey: KEY }, staging: {} });
    const err = (() => {
      try {
        checkKnownProfile(resolveSettings({ flags: { profile: 'shop-ue' }, env: {}, store: saved }));
      } catch (e) {
        return e as UsageError;
      }
      throw new Error('not refused');
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect(err.toLine()).toBe(
      'unknown profile "shop-ue" (--profile; saved profiles: shop-eu, staging): check the name, or create the ' +
        'profile with "trk auth login --profile shop-ue"',
    );
    expect(() =>
      checkKnownProfile(resolveSettings({ flags: {}, env: { TRK_PROFILE: 'x' }, store: store({}) })),
    ).toThrow('unknown profile "x" (TRK_PROFILE; no profile is saved yet)');
    // The active profile of the file, removed by hand.
    const dangling = resolveSettings({ flags: {}, env: {}, store: store({ a: {} }, 'gone') });
    expect(lineOf(() => checkKnownProfile(dangling))).toMatch(
      /the active profile of the config file.*: choose one with "trk auth switch NAME"/,
    );
    expect(unknownProfileError('x', ['a'], undefined, 'use one of a').toLine()).toBe(
      'unknown profile "x" (saved profiles: a): use one of a',
    );
  });
});

describe('missing key', () => {
  const line = (e: CredentialsError) => e.toLine();
  it('names the profile without a key, the missing active profile, or says to log in', () => {
    const s = (profiles: Record<string, Profile>, flags: { profile?: string } = {}, current?: string) =>
      resolveSettings({ flags, env: {}, store: store(profiles, current) });
    expect(line(missingKeyError(s({ staging: {} }, { profile: 'staging' })))).toBe(
      'profile "staging" has no API key: run "trk auth login --profile staging", or set TRK_API_KEY',
    );
    expect(line(missingKeyError(s({ 'shop-eu': { apiKey: KEY }, 'shop-us': { apiKey: KEY } })))).toBe(
      'not logged in: no profile is active (saved profiles: shop-eu, shop-us): run "trk auth switch NAME" to ' +
        'use one of them, or "trk auth login" to log in',
    );
    expect(line(missingKeyError(s({})))).toBe('no API key configured: run "trk auth login" or set TRK_API_KEY');
    expect(missingKeyError(s({})).exitCode).toBe(4);
  });
});

// A service that sends the key back (test/hostile/server.ts: echo-key, echo-key-data, redirect-key): in an error
// message, in the body a command prints, in a redirect's Location. Whatever the command, with or without
// --verbose, in text or JSON errors, the key never reaches stdout or stderr; what it was part of still shows.
import { describe, expect, it } from 'vitest';
import { baseEnv, trk } from '../e2e/helpers.js';
import { hostileServerForTests, type LeakMode } from './server.js';

const KEY = 'hostile-secret-key-0123456789abc';
/** Per request, a real time limit: nothing here hangs, so it is long enough that a loaded machine never meets it. */
const TIMEOUT = '10s';

const hostile = hostileServerForTests();

const COMMANDS: readonly (readonly string[])[] = [
  ['quota'],
  ['quota', '--json'],
  ['list', '--json'],
  ['info', 'RR123456789CN'],
  ['register', 'RR123456789CN', '--carrier', '3011', '--json'],
  ['stop', 'RR123456789CN'],
  ['api', 'getquota'],
];

/** What each mode leaves of the key's context, for one command that shows it. */
const SHOWS: Record<LeakMode, RegExp> = {
  'echo-key': /key \*\*\* may not do this/,
  'echo-key-data': /you sent \*\*\*/,
  'redirect-key': /redirects to https:\/\/elsewhere\.invalid\/track\?key=\*\*\*/,
};

describe.each(Object.keys(SHOWS) as LeakMode[])('a service that sends the key back: %s', (mode) => {
  it.each([[[] as string[]], [['-v']]])('no command prints it (flags %j)', async (flags) => {
    hostile().setMode(mode);
    const env = { ...baseEnv(), TRK_BASE_URL: hostile().url, TRK_API_KEY: KEY, TRK_TIMEOUT: TIMEOUT };
    let shown = false;
    for (const args of COMMANDS) {
      const r = await trk([...flags, ...args], { env });
      const all = `${r.stdout}\n${r.stderr}`;
      expect(all, `${args.join(' ')}: ${all}`).not.toContain(KEY);
      if (SHOWS[mode].test(all)) shown = true;
    }
    // The text around the key is still there.
    expect(shown).toBe(true);
  });
});

describe('auth login with a key the service sends back', () => {
  it('never prints the key it verifies', async () => {
    hostile().setMode('echo-key');
    const env = { ...baseEnv(), TRK_BASE_URL: hostile().url, TRK_TIMEOUT: TIMEOUT };
    const r = await trk(['auth', 'login', '--with-key-stdin', '-v'], { env, input: `${KEY}\n` });
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
    expect(r.stderr).toMatch(/key \*\*\* may not do this/);
  });
});

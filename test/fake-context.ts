// What the fake Contexts of the unit tests share: fixed settings, a prompter that answers no, status lines on
// the captured stderr unless --quiet, no debug lines, a pacer that never waits and nothing to dispose. The command tests'
// fake (test/commands/fake-context.ts) and the carrier and webhook commands' (test/carriers/fake-context.ts)
// add their own API client, clock and Ctrl-C.

import type { ApiVersion } from '../src/service/vocabulary.js';
import type { Settings } from '../src/config/settings.js';
import type { Context, Prompter } from '../src/context.js';

export function fakeSettings(version: ApiVersion, apiKey: string | undefined): Settings {
  return {
    profile: 'default',
    baseUrl: 'http://127.0.0.1:9',
    apiVersion: version,
    apiKey,
    resUrl: 'http://127.0.0.1:9',
    budgetUrl: undefined,
    db: undefined,
    sandbox: false,
    output: undefined,
    savedProfiles: [],
    sources: { profile: 'default', baseUrl: 'default', apiVersion: 'default', apiKey: 'env', resUrl: 'default', output: 'default', budgetUrl: 'default', db: 'default' },
  };
}

/** Refuses every confirmation and answers every question with nothing. */
export const refusingPrompter: Prompter = {
  confirm: async () => false,
  input: async () => '',
  password: async () => '',
  select: async (_message, choices, defaultValue) => defaultValue ?? choices[0]?.value ?? '',
};

/** A Context of the given parts and the shared rest. */
export function fakeContextOf(
  parts: Pick<Context, 'io' | 'env' | 'global' | 'settings' | 'api' | 'now' | 'signal'> & { prompter?: Prompter },
): Context {
  return {
    prompter: refusingPrompter,
    ...parts,
    info: (line) => {
      if (!parts.global.quiet) parts.io.err(line);
    },
    debug: () => {},
    // Starts every request at once: these contexts talk to fakes, not to a rate-limited service.
    pacer: async () => ({ acquire: async () => {}, backoff: () => {} }),
    dispose: async () => {},
  };
}

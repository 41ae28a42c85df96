// What a person at a terminal sees and types: the profile picker, the login prompts, --jq pretty-printed, tables,
// the getting-started help. In a pseudo-terminal (test/e2e/terminal.ts); the piped behaviour of the same commands
// is in settings.e2e.test.ts and output-formats.e2e.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, startEmulator, trk, type Emulator } from './helpers.js';
import { HAS_SCRIPT, inTerminal } from './terminal.js';

let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
});

afterAll(async () => {
  await emu?.close();
});

const DOWN = '\u001b[B';

/** A config folder with two profiles on the emulator, shop-eu active. */
async function twoProfiles(): Promise<NodeJS.ProcessEnv> {
  const env = baseEnv();
  delete env.TRK_API_KEY;
  delete env.TRK_BASE_URL;
  for (const profile of ['shop-eu', 'shop-us']) {
    const r = await trk(['auth', 'login', '--with-key-stdin', '--base-url', emu.sandbox.url, '--profile', profile], {
      env,
      input: emu.sandbox.key,
    });
    expect(r.code, r.stderr).toBe(0);
  }
  return env;
}

async function active(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await trk(['auth', 'list', '--json'], { env });
  return (JSON.parse(r.stdout) as { name: string; active: boolean }[]).find((p) => p.active)?.name;
}

describe.skipIf(!HAS_SCRIPT)('in a terminal', () => {
  it('auth switch without a name offers the saved profiles; arrow keys and Enter choose', async () => {
    const env = await twoProfiles();
    expect(await active(env)).toBe('shop-eu');
    const r = await inTerminal(['auth', 'switch'], {
      env,
      steps: [
        { waitFor: /Profile to make active[\s\S]*shop-us/, send: DOWN },
        { waitFor: /shop-us/, send: '\r' },
      ],
    });
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain(`active profile: shop-us (${emu.sandbox.url}, v2, key ****)`);
    expect(await active(env)).toBe('shop-us');
  });

  it(
    'auth login asks for the base URL and the key (masked), verifies it, and leaves the active ' + 'profile alone',
    async () => {
      const env = await twoProfiles();
      const r = await inTerminal(['auth', 'login', '--profile', 'staging'], {
        env,
        steps: [
          { waitFor: /Base URL of the service/, send: `${emu.sandbox.url}\r` },
          { waitFor: /API key/, send: `${emu.sandbox.key}\r` },
        ],
      });
      expect(r.code, r.screen).toBe(0);
      // Masked as typed, never echoed.
      expect(r.screen).not.toContain(emu.sandbox.key);
      // Status lines wrap between words at the terminal's width.
      const said = r.screen.replace(/\s+/g, ' ');
      expect(said).toContain('saved in profile "staging"');
      expect(said).toContain('active profile: shop-eu (unchanged; "trk auth switch staging" makes staging active)');
      expect(await active(env)).toBe('shop-eu');
    },
  );

  it('auth list is a table with the active profile marked', async () => {
    const env = await twoProfiles();
    const r = await inTerminal(['auth', 'list'], { env });
    expect(r.code, r.screen).toBe(0);
    const lines = r.screen.split('\n');
    expect(lines[0]).toMatch(/^ACTIVE\s+NAME\s+BASE URL\s+VERSION\s+KEY/);
    expect(lines[1]).toMatch(/^\*\s+shop-eu\s+http:\/\/127\.0\.0\.1:\d+\s+v2\s+\*{4}\s/);
    expect(lines[2]).toMatch(/^\s+shop-us\s/);
  });

  it('--jq pretty-prints objects on a terminal (compact when piped) and prints strings raw', async () => {
    const env = emu.env;
    const pretty = await inTerminal(['quota', '--jq', '{total: .quota_total}, "a string"'], { env });
    expect(pretty.code, pretty.screen).toBe(0);
    expect(pretty.screen).toMatch(/^\{\n {2}"total": \d+\n\}\na string\n/);
    const piped = await trk(['quota', '--jq', '{total: .quota_total}, "a string"'], { env });
    expect(piped.stdout).toMatch(/^\{"total":\d+\}\na string\n$/);
  });

  it('delete lists the records it would delete and asks about them; no deletes nothing', async () => {
    const env = emu.env;
    const number = 'RR200000017CN';
    expect((await trk(['register', number, '--carrier', '3011', '-q'], { env })).code).toBe(0);
    const r = await inTerminal(['delete', number, 'XX999999999XX'], {
      env,
      steps: [{ waitFor: /cannot be undone/, send: 'n\r' }],
    });
    expect(r.code, r.screen).toBe(2);
    expect(r.screen).toMatch(new RegExp(`  ${number}  3011\\b`));
    expect(r.screen).toContain('not registered: XX999999999XX');
    expect(r.screen).toContain('Delete this record from the account? This cannot be undone.');
    const still = await trk(['list', '--number', number, '-o', 'ids'], { env });
    expect(still.stdout).toContain(number);
  });

  it('auth logout asks before removing a key; no keeps it, --yes does not ask', async () => {
    const env = await twoProfiles();
    const no = await inTerminal(['auth', 'logout', '--profile', 'shop-us'], {
      env,
      steps: [{ waitFor: /Remove profile "shop-us"/, send: 'n\r' }],
    });
    expect(no.code, no.screen).toBe(2);
    expect(no.screen).toMatch(
      /Remove profile "shop-us" \(http:\/\/127\.0\.0\.1:\d+, v2, key \*{4}\) with its key and settings\?/,
    );
    expect(no.screen).toContain('cancelled: nothing was removed');
    const kept = await trk(['auth', 'list', '--json'], { env });
    expect((JSON.parse(kept.stdout) as { name: string }[]).map((p) => p.name)).toEqual(['shop-eu', 'shop-us']);
    const yes = await inTerminal(['auth', 'logout', '--profile', 'shop-us', '--yes'], { env });
    expect(yes.code, yes.screen).toBe(0);
    expect(yes.screen).not.toContain('Remove profile');
    expect(yes.screen).toContain('removed profile "shop-us"');
  });

  it('errors are a line of text on a terminal; trk --help opens with getting started', async () => {
    const env = await twoProfiles();
    const r = await inTerminal(['--profile', 'shop-ue', 'quota'], { env });
    expect(r.code).toBe(2);
    expect(r.screen.trim()).toBe(
      'trk: unknown profile "shop-ue" (--profile; saved profiles: shop-eu, shop-us): check the name, or create ' +
        'the profile with "trk auth login --profile shop-ue"',
    );
    const help = await inTerminal(['--help'], { env });
    expect(help.code).toBe(0);
    expect(help.screen).toMatch(/^Getting started:\n {2}trk register RR123456789CN --sandbox/);
  });
});

describe('getting started', () => {
  it('the first lines of trk --help work as written', async () => {
    const env = baseEnv();
    const help = (await trk(['--help'], { env })).stdout;
    const lines = help
      .slice(0, help.indexOf('\n\n'))
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s{2,}/)[0]!)
      .filter((l) => l.includes('--sandbox'));
    expect(lines).toEqual(['trk register RR123456789CN --sandbox', 'trk list --sandbox']);
    for (const line of lines) {
      const r = await trk(line.split(' ').slice(1), { env });
      expect(r.code, `${line}: ${r.stderr}`).toBe(0);
    }
    const listed = await trk(['list', '--sandbox', '--jq', '.[].number'], { env });
    expect(listed.stdout).toBe('RR123456789CN\n');
  });
});

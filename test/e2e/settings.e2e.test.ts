// Profiles, default outputs and errors as data, end to end: trk against the emulator, its output piped.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { baseEnv, parseCsv, startEmulator, trk, type Emulator, type Result } from './helpers.js';

let emu: Emulator;
let other: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
  // A second account, with a key of its own.
  other = await startEmulator({ speed: 0, key: 'other-account-key-0123456789abcdef' });
});

afterAll(async () => {
  await emu?.close();
  await other?.close();
});

// Each test is a machine of its own on the same two accounts (a fresh state folder, so a rate budget of its own):
// a second passes between them, so that the requests counted are this test's alone, never a retried 429.
beforeEach(() => clock().sleep(1000));

/** A fresh config folder, no key in the environment. */
function freshEnv(): NodeJS.ProcessEnv {
  const env = baseEnv();
  delete env.TRK_API_KEY;
  return env;
}

async function login(env: NodeJS.ProcessEnv, profile: string, account: Emulator, ...flags: string[]): Promise<Result> {
  const r = await trk(
    ['auth', 'login', '--with-key-stdin', '--base-url', account.sandbox.url, '--profile', profile, ...flags],
    {
      env,
      input: `${account.sandbox.key}\n`,
    },
  );
  expect(r.code, r.stderr).toBe(0);
  return r;
}

interface ProfileRow {
  name: string;
  active: boolean;
  base_url: string;
  api_key: string | null;
}

async function profiles(env: NodeJS.ProcessEnv): Promise<ProfileRow[]> {
  const r = await trk(['auth', 'list', '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ProfileRow[];
}

const oneLine = (r: Result): string => {
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  return lines[0]!;
};

describe('profiles', () => {
  it('login to a second profile leaves the active one alone, says so, and --activate switches', async () => {
    const env = freshEnv();
    const first = await login(env, 'shop-eu', emu);
    expect(first.stderr).toContain('saved in profile "shop-eu"');
    expect(first.stderr).toContain('active profile: shop-eu');
    expect(first.stderr).toMatch(/key valid, [\d,]+ units left/);

    const second = await login(env, 'shop-us', other);
    expect(second.stderr).toContain(
      'active profile: shop-eu (unchanged; "trk auth switch shop-us" makes shop-us active)',
    );
    // A cron job without TRK_PROFILE still talks to the first account.
    const before = other.requests();
    expect((await trk(['quota', '--json'], { env })).code).toBe(0);
    expect(other.requests()).toBe(before);

    const list = await profiles(env);
    expect(list.map((p) => [p.name, p.active, p.base_url])).toEqual([
      ['shop-eu', true, emu.sandbox.url],
      ['shop-us', false, other.sandbox.url],
    ]);
    // Masked: never the key itself.
    expect(list[1]!.api_key).toBe('****cdef');
    const raw = await trk(['auth', 'list', '--csv'], { env });
    expect(raw.stdout).not.toContain(other.sandbox.key);
    expect(parseCsv(raw.stdout).map((r) => r.active)).toEqual(['true', 'false']);
    const tsv = await trk(['auth', 'list'], { env });
    expect(tsv.stdout.split('\n')[0]).toBe(`true\tshop-eu\t${emu.sandbox.url}\tv2\t****\t${emu.sandbox.url}\t`);

    await login(env, 'staging', emu, '--activate');
    expect((await profiles(env)).find((p) => p.active)?.name).toBe('staging');
  });

  it('switch makes a saved profile active; an unknown name anywhere is exit 2 listing the saved ones', async () => {
    const env = freshEnv();
    await login(env, 'shop-eu', emu);
    await login(env, 'shop-us', other);
    const sw = await trk(['auth', 'switch', 'shop-us'], { env });
    expect(sw.code, sw.stderr).toBe(0);
    expect(sw.stderr).toContain(`active profile: shop-us (${other.sandbox.url}, v2, key ****cdef)`);
    const before = other.requests();
    expect((await trk(['quota', '-q'], { env })).code).toBe(0);
    expect(other.requests()).toBe(before + 1);

    const sent = emu.requests() + other.requests();
    const saved = 'saved profiles: shop-eu, shop-us';
    const flag = await trk(['--profile', 'shop-ue', 'quota'], { env });
    expect(flag.code).toBe(2);
    expect(oneLine(flag)).toBe(
      `trk: unknown profile "shop-ue" (--profile; ${saved}): check the name, or create the profile with "trk ` +
        `auth login --profile shop-ue"`,
    );
    const variable = await trk(['list'], { env: { ...env, TRK_PROFILE: 'nosuch' } });
    expect(variable.code).toBe(2);
    expect(oneLine(variable)).toContain(`unknown profile "nosuch" (TRK_PROFILE; ${saved})`);
    for (const args of [
      ['config', 'get', 'base-url'],
      ['config', 'list'],
      ['auth', 'status'],
      ['auth', 'logout'],
      ['config', 'unset', 'output'],
    ]) {
      const r = await trk([...args, '--profile', 'shop-ue'], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(oneLine(r)).toContain(saved);
    }
    const target = await trk(['auth', 'switch', 'nosuch'], { env });
    expect(target.code).toBe(2);
    expect(oneLine(target)).toBe(`trk: unknown profile "nosuch" (${saved}): use one of shop-eu, shop-us`);
    // Without a terminal there is no picker: the name is asked for in words.
    const bare = await trk(['auth', 'switch'], { env });
    expect(bare.code).toBe(2);
    expect(oneLine(bare)).toContain(`"trk auth switch NAME" (${saved})`);
    expect(emu.requests() + other.requests()).toBe(sent);
  });

  it('config set on an unknown profile needs --create, and says the new profile is not active', async () => {
    const env = freshEnv();
    await login(env, 'shop-eu', emu);
    const typo = await trk(['config', 'set', 'api-version', 'v2.1', '--profile', 'shop-ue'], { env });
    expect(typo.code).toBe(2);
    expect(oneLine(typo)).toBe(
      'trk: unknown profile "shop-ue" (--profile; saved profiles: shop-eu): add --create to create profile "shop-ue"',
    );
    expect((await profiles(env)).map((p) => p.name)).toEqual(['shop-eu']);
    const made = await trk(['config', 'set', 'api-version', 'v2.1', '--profile', 'staging', '--create'], { env });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain('api-version = v2.1 in new profile "staging"');
    expect(made.stderr).toContain('profile "staging" is not the active one');
    // It has no key: said in terms of the profile.
    const noKey = await trk(['--profile', 'staging', 'quota'], { env });
    expect(noKey.code).toBe(4);
    expect(oneLine(noKey)).toBe(
      'trk: profile "staging" has no API key: run "trk auth login --profile staging", or set TRK_API_KEY',
    );
  });

  it(
    'status checks the key with one getquota; a refused key is exit 4, a dead service 1, --offline sends ' + 'nothing',
    async () => {
      const env = freshEnv();
      await login(env, 'shop-eu', emu);
      const before = emu.requests();
      const ok = await trk(['auth', 'status'], { env });
      expect(ok.code, ok.stderr).toBe(0);
      expect(emu.requests()).toBe(before + 1);
      expect(ok.stderr).toMatch(/^key valid, [\d,]+ units left \(profile "shop-eu", http:\/\/127\.0\.0\.1:\d+\)$/m);
      expect(ok.stdout).toMatch(/^profile\tshop-eu\tprofile$/m);
      const json = JSON.parse((await trk(['auth', 'status', '--json'], { env })).stdout) as {
        check: { valid: boolean; quota_remain: number };
      };
      expect(json.check.valid).toBe(true);
      expect(json.check.quota_remain).toBeGreaterThan(0);

      const wrong = await trk(['auth', 'status'], { env: { ...env, TRK_API_KEY: 'wrong-key-0000000000000000000000' } });
      expect(wrong.code).toBe(4);
      expect(wrong.stdout).toBe('');
      expect(oneLine(wrong)).toBe(
        `trk: invalid API key (-18010002): ${emu.sandbox.url} refuses the key in TRK_API_KEY (or ` +
          `TRK_API_KEY_FILE): set TRK_API_KEY to a valid key, or unset it to use the profile`,
      );

      const dead = await trk(['auth', 'status', '-q', '--timeout', '2s'], {
        env: { ...env, TRK_BASE_URL: 'http://127.0.0.1:9' },
      });
      expect(dead.code).toBe(1);
      expect(dead.stdout).toBe('');
      expect(oneLine(dead)).toMatch(/^trk: cannot reach 127\.0\.0\.1:9/);

      const sent = emu.requests();
      const offline = await trk(['auth', 'status', '--offline'], {
        env: { ...env, TRK_BASE_URL: 'http://127.0.0.1:9' },
      });
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.stderr).toContain('key not checked (--offline)');
      expect(emu.requests()).toBe(sent);
    },
  );

  it('logout removes the profile entirely and says what is active; the next command says what to do', async () => {
    const env = freshEnv();
    await login(env, 'shop-eu', emu);
    await login(env, 'shop-us', other);
    const out = await trk(['auth', 'logout'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('removed profile "shop-eu" with its key and settings');
    expect(out.stderr).toContain(
      'no profile is active (saved profiles: shop-us): choose one with "trk auth switch NAME"',
    );
    expect((await profiles(env)).map((p) => p.name)).toEqual(['shop-us']);
    const quota = await trk(['quota'], { env });
    expect(quota.code).toBe(4);
    expect(oneLine(quota)).toBe(
      'trk: not logged in: no profile is active (saved profiles: shop-us): run "trk auth switch NAME" to use ' +
        'one of them, or "trk auth login" to log in',
    );
    // Logging out of a profile that is not active leaves the active one as it is.
    await login(env, 'shop-eu', emu, '--activate');
    const named = await trk(['auth', 'logout', '--profile', 'shop-us'], { env });
    expect(named.stderr).toContain('active profile: shop-eu');
    expect((await trk(['quota', '-q'], { env })).code).toBe(0);
  });
});

describe('first steps with profiles', () => {
  it('login against a sandbox server saves its res-url too, so that carrier lookups work after', async () => {
    const env = freshEnv();
    // Nothing in the environment points the lists anywhere: the profile has to.
    delete env.TRK_RES_URL;
    const r = await login(env, 'rehearsal', emu);
    expect(r.stderr).toContain(`carrier and country lists from ${emu.sandbox.url} too (res-url)`);
    const list = await trk(['auth', 'list', '--json'], { env });
    expect(
      (JSON.parse(list.stdout) as { name: string; res_url: string }[]).find((p) => p.name === 'rehearsal')?.res_url,
    ).toBe(emu.sandbox.url);
    const carriers = await trk(['carriers', 'dhl', '-o', 'ids'], { env });
    expect(carriers.code, carriers.stderr).toBe(0);
    expect(carriers.stdout).toMatch(/^\d+\n/);
  });

  it(
    'auth status --offline on a profile without a key shows the settings (exit 0), saying there ' + 'is no key',
    async () => {
      const env = freshEnv();
      expect(
        (await trk(['config', 'set', 'api-version', 'v2.1', '--profile', 'staging', '--create'], { env })).code,
      ).toBe(0);
      const r = await trk(['auth', 'status', '--offline', '--profile', 'staging'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^api-version\tv2\.1\tprofile$/m);
      expect(r.stdout).toMatch(/^api-key\t\tdefault$/m);
      expect(r.stderr).toContain('key not checked (--offline): profile "staging" has no API key');
      // Checking the key needs one: still exit 4.
      expect((await trk(['auth', 'status', '--profile', 'staging'], { env })).code).toBe(4);
    },
  );

  it('config set on a fresh install needs --create for "default" too, and the first login becomes active', async () => {
    const env = freshEnv();
    const refused = await trk(['config', 'set', 'output', 'json'], { env });
    expect(refused.code).toBe(2);
    expect(oneLine(refused)).toBe(
      'trk: unknown profile "default" (no profile is saved yet): add --create to create profile "default"',
    );
    expect(await profiles(env)).toEqual([]);
    // Made on purpose, keyless: the first login with a key still becomes the active profile.
    expect((await trk(['config', 'set', 'output', 'json', '--create'], { env })).code).toBe(0);
    const r = await login(env, 'shop-eu', emu);
    expect(r.stderr).toContain('active profile: shop-eu');
    expect((await profiles(env)).find((p) => p.active)?.name).toBe('shop-eu');
  });

  it('logout without a terminal removes the profile without asking (as gh does); --yes is accepted', async () => {
    const env = freshEnv();
    await login(env, 'shop-eu', emu);
    await login(env, 'shop-us', other);
    const r = await trk(['auth', 'logout', '--profile', 'shop-us'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/\?/);
    expect((await trk(['auth', 'logout', '--yes'], { env })).code).toBe(0);
    expect(await profiles(env)).toEqual([]);
  });
});

describe('default output', () => {
  it("a profile's output setting and TRK_OUTPUT apply where no flag names a format; flags win", async () => {
    const env = freshEnv();
    await login(env, 'shop-eu', emu);
    expect((await trk(['config', 'set', 'output', 'json'], { env })).code).toBe(0);
    const quota = await trk(['quota'], { env });
    expect(JSON.parse(quota.stdout)).toHaveProperty('quota_remain');
    const csv = await trk(['quota', '--csv'], { env });
    expect(parseCsv(csv.stdout)[0]).toHaveProperty('quota_remain');
    const fromEnv = await trk(['quota'], { env: { ...env, TRK_OUTPUT: 'ndjson' } });
    expect(fromEnv.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(fromEnv.stdout)).toHaveProperty('quota_remain');
    const list = await trk(['config', 'list', '--csv'], { env: { ...env, TRK_OUTPUT: 'ndjson' } });
    expect(parseCsv(list.stdout).find((r) => r.key === 'output')).toEqual({
      key: 'output',
      value: 'csv',
      source: 'flag',
    });
    const shown = JSON.parse((await trk(['config', 'list'], { env })).stdout) as Record<
      string,
      { value: string; source: string }
    >;
    expect(shown.output).toEqual({ value: 'json', source: 'profile' });
    // A default a command cannot print is not a demand: trk api keeps JSON under a CSV default.
    const api = await trk(['api', 'getquota'], { env: { ...env, TRK_OUTPUT: 'csv' } });
    expect(api.code, api.stderr).toBe(0);
    expect(JSON.parse(api.stdout)).toMatchObject({ code: 0 });
    const bad = await trk(['quota'], { env: { ...env, TRK_OUTPUT: 'yaml' } });
    expect(bad.code).toBe(2);
    expect(oneLine(bad)).toBe(
      'trk: unknown output format "yaml" (TRK_OUTPUT): use one of table, wide, json, ndjson, csv, ids, text',
    );
    expect((await trk(['config', 'unset', 'output'], { env })).code).toBe(0);
    expect((await trk(['quota'], { env })).stdout).toMatch(/^quota_remain\t\d+$/m);
  });
});

describe('errors as data', () => {
  const wrong = () => ({ ...emu.env, TRK_API_KEY: 'wrong-key-0000000000000000000000' });
  const parsed = (r: Result) => {
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    return JSON.parse(lines[0]!) as { error: Record<string, unknown> };
  };

  it('with --json, -o ndjson, --jq or TRK_ERROR_FORMAT=json an error is one JSON object on stderr', async () => {
    const expected = {
      error: {
        code: -18010002,
        kind: 'auth',
        message: 'invalid API key (-18010002)',
        hint: 'run "trk auth login" or set TRK_API_KEY',
        exit_code: 4,
      },
    };
    for (const args of [
      ['list', '--json'],
      ['quota', '-o', 'ndjson'],
      ['quota', '--jq', '.quota_remain'],
      ['api', 'getquota'],
    ]) {
      const r = await trk(args, { env: args[0] === 'api' ? { ...wrong(), TRK_ERROR_FORMAT: 'json' } : wrong() });
      expect(r.code, args.join(' ')).toBe(4);
      expect(r.stdout).toBe('');
      expect(parsed(r)).toEqual(expected);
    }
    // A usage error found by the command line, and the text form when asked for.
    const usage = await trk(['list', '--json', '--limit', '0'], { env: emu.env });
    expect(usage.code).toBe(2);
    expect(parsed(usage).error).toMatchObject({ code: null, kind: 'usage', exit_code: 2 });
    const text = await trk(['list', '--json'], { env: { ...wrong(), TRK_ERROR_FORMAT: 'text' } });
    expect(text.stderr).toBe('trk: invalid API key (-18010002): run "trk auth login" or set TRK_API_KEY\n');
    const down = await trk(['quota', '--json', '-q', '--timeout', '1s'], {
      env: { ...emu.env, TRK_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(parsed(down).error).toMatchObject({ code: null, kind: 'network', exit_code: 1 });
  });
});

describe('carrier aliases', () => {
  /** `trk config list` as rows of one format, the aliases' alone. */
  async function listedAliases(env: NodeJS.ProcessEnv, ...flags: string[]): Promise<Record<string, string>> {
    const csv = await trk(['config', 'list', '--csv', ...flags], { env });
    expect(csv.code, csv.stderr).toBe(0);
    const rows = parseCsv(csv.stdout).filter((r) => r.key!.startsWith('carrier-alias.'));
    return Object.fromEntries(rows.map((r) => [r.key!, `${r.value} ${r.source}`]));
  }

  it('under --sandbox are kept apart from every account, used by register, shown by config list', async () => {
    const env = freshEnv();
    const set = await trk(['config', 'set', 'carrier-alias.DHL', '7041', '--sandbox'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(oneLine(set)).toBe('carrier-alias.DHL = 7041 in profile "sandbox"');
    // No profile pointing at the real service was made for it.
    expect((await profiles(env)).map((p) => [p.name, p.api_key])).toEqual([['sandbox', null]]);
    const got = await trk(['config', 'get', 'carrier-alias.dhl', '--sandbox'], { env });
    expect(got.stdout).toBe('7041\n');
    // An account's commands do not see the sandbox's aliases.
    expect((await trk(['config', 'get', 'carrier-alias.DHL'], { env })).stdout).toBe('');

    const reg = await trk(['register', 'JJD000000000000000091', '--carrier', 'DHL', '--sandbox', '--json'], { env });
    expect(reg.code, reg.stderr).toBe(0);
    expect(reg.stdout).toMatch(/"carrier":\s*7041/);

    expect(await listedAliases(env, '--sandbox')).toEqual({ 'carrier-alias.DHL': '7041 profile' });
    const piped = await trk(['config', 'list', '--sandbox'], { env });
    expect(piped.stdout).toMatch(/^carrier-alias\.DHL\t7041\tprofile$/m);
    // Requests go to the emulator in the process, not to the service's addresses.
    expect(piped.stdout).toMatch(/^base-url\t\(the built-in sandbox\)\tflag$/m);
    expect(piped.stdout).toMatch(/^res-url\t\(the built-in sandbox\)\tflag$/m);
    expect((await trk(['config', 'list'], { env })).stdout).toMatch(/^base-url\thttps:\/\/\S+\t/m);
    for (const table of ['table', 'wide']) {
      const shown = await trk(['config', 'list', '--sandbox', '-o', table], { env });
      expect(shown.stdout).toMatch(/^carrier-alias\.DHL +7041 +profile$/m);
    }
    const json = JSON.parse((await trk(['config', 'list', '--sandbox', '--json'], { env })).stdout) as Record<
      string,
      unknown
    >;
    expect(json['carrier-alias.DHL']).toEqual({ value: '7041', source: 'profile' });
    const ndjson = await trk(['config', 'list', '--sandbox', '-o', 'ndjson'], { env });
    expect(ndjson.stdout).toContain('{"key":"carrier-alias.DHL","value":"7041","source":"profile"}');

    const unset = await trk(['config', 'unset', 'carrier-alias.DHL', '--sandbox'], { env });
    expect(oneLine(unset)).toBe('removed carrier-alias.DHL from profile "sandbox"');
    expect(await listedAliases(env, '--sandbox')).toEqual({});
  });

  it('of a named profile are set, used by register and listed under --profile, and stay its own', async () => {
    const env = freshEnv();
    await login(env, 'shop-eu', emu);
    await login(env, 'shop-us', emu);
    const set = await trk(['config', 'set', 'carrier-alias.Post', '7044', '--profile', 'shop-us'], { env });
    expect(oneLine(set)).toBe('carrier-alias.Post = 7044 in profile "shop-us"');
    const reg = await trk(['register', '00340434161234567892', '--carrier', 'Post', '--profile', 'shop-us'], { env });
    expect(reg.code, reg.stderr).toBe(0);
    const held = [...emu.sandbox.account.store.values()].find((r) => r.number === '00340434161234567892');
    expect(held?.carrier).toBe(7044);
    expect(await listedAliases(env, '--profile', 'shop-us')).toEqual({ 'carrier-alias.Post': '7044 profile' });
    expect(await listedAliases(env, '--profile', 'shop-eu')).toEqual({});
    const missing = await trk(['config', 'unset', 'carrier-alias.Post', '--profile', 'shop-eu'], { env });
    expect(oneLine(missing)).toBe('carrier-alias.Post is not set in profile "shop-eu"');
    expect((await trk(['config', 'unset', 'carrier-alias.Post', '--profile', 'shop-us'], { env })).code).toBe(0);
    expect(await listedAliases(env, '--profile', 'shop-us')).toEqual({});
  });

  it('that are not plain names are refused by set, get and unset with exit 2, and nothing is written', async () => {
    const env = freshEnv();
    expect((await trk(['config', 'set', 'carrier-alias.DHL', '7041', '--sandbox'], { env })).code).toBe(0);
    const file = path.join(env.TRK_CONFIG_DIR!, 'config.json');
    const before = readFileSync(file, 'utf8');
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'Royal\u0007Mail', 'DHL\nExpress', '']) {
      for (const args of [
        ['set', `carrier-alias.${name}`, '3011'],
        ['get', `carrier-alias.${name}`],
        ['unset', `carrier-alias.${name}`],
      ]) {
        const r = await trk(['config', ...args, '--sandbox'], { env });
        expect(r.code, `${JSON.stringify(args)}: ${r.stderr}`).toBe(2);
        expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
        expect(r.stderr).toMatch(/carrier-alias\.NAME/);
      }
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
    for (const key of ['__proto__', 'constructor', '', 'output\u0000']) {
      const r = await trk(['config', 'set', key, 'json', '--sandbox'], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(/use one of base-url/);
    }
    for (const profile of ['constructor', 'toString']) {
      const r = await trk(['config', 'set', 'output', 'json', '--profile', profile, '--create'], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/invalid profile name/);
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
    const map = path.join(env.TRK_CONFIG_DIR!, 'carriers.csv');
    writeFileSync(map, 'DHL,7041\n__proto__,3011\n');
    const mapped = await trk(['carriers', '--aliases', '--carrier-map', map], { env });
    expect(mapped.code, mapped.stderr).toBe(2);
    expect(mapped.stderr).toMatch(/line 2: "__proto__" is a word of JavaScript objects/);
  });
});

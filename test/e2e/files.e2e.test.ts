// The files trk keeps and the files it writes, through the built CLI: a profiles file others can read is made
// private with a warning; no file trk is told to write (--rejects, webhook listen --save, sandbox --state) may be one
// of its own.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, numbers, startEmulator, trk, type Emulator } from './helpers.js';

let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
});

afterAll(async () => {
  await emu?.close();
});

/** An environment whose key is in a profiles file of `mode`, in a config folder of `dirMode`. */
function withProfile(mode: number, dirMode: number): { env: NodeJS.ProcessEnv; file: string; dir: string } {
  // Fresh folders, the key in the profile only.
  const env = baseEnv();
  const dir = env.TRK_CONFIG_DIR!;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ current: 'default', profiles: { default: { 'base-url': emu.sandbox.url, 'api-key': emu.sandbox.key } } }));
  chmodSync(file, mode);
  chmodSync(dir, dirMode);
  return { env, file, dir };
}

const modeOf = (p: string) => statSync(p).mode & 0o777;

describe.skipIf(process.platform === 'win32')('a profiles file others can read', () => {
  it('is set to 0600 (its folder 0700) with a warning on stderr, even with -q; the next run says nothing', async () => {
    const { env, file, dir } = withProfile(0o644, 0o755);
    const r = await trk(['-q', 'quota', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('quota_total');
    expect(r.stderr).toBe(
      `warning: the config folder ${dir} could be read by others (mode 0755), and it holds API keys: set to 0700\n` +
        `warning: the config file ${file} could be read by others (mode 0644), and it holds API keys: set to 0600\n`,
    );
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
    const again = await trk(['-q', 'quota', '--json'], { env });
    expect(again.stderr).toBe('');
  });
});

describe('files trk is told to write are never its own', () => {
  function input(env: NodeJS.ProcessEnv): string {
    const file = path.join(env.HOME!, 'in.csv');
    writeFileSync(file, `number,carrier\n${numbers(2, 'OW').map((n) => `${n},3011`).join('\n')}\nbad,3011\n`);
    return file;
  }

  it.each([
    ['the profiles file', (env: NodeJS.ProcessEnv) => path.join(env.TRK_CONFIG_DIR!, 'config.json'), /config folder, which holds the API keys/],
    ['a file in the state folder', (env: NodeJS.ProcessEnv) => path.join(env.TRK_STATE_DIR!, 'runs', 'rejects.csv'), /state folder/],
    ['a link to the profiles file', (env: NodeJS.ProcessEnv) => {
      const link = path.join(env.HOME!, 'rejects.csv');
      symlinkSync(path.join(env.TRK_CONFIG_DIR!, 'config.json'), link);
      return link;
    }, /config folder/],
  ])('--rejects %s: exit 2, nothing sent, the file untouched', async (_what, target, says) => {
    const { env, file } = withProfile(0o600, 0o700);
    mkdirSync(env.TRK_STATE_DIR!, { recursive: true });
    const before = readFileSync(file, 'utf8');
    const requests = emu.requests();
    const r = await trk(['register', '-f', input(env), '--skip-invalid', '--rejects', target(env)], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^trk: --rejects .* is in trk's ${says.source}.*: give a path outside it; nothing was done\\n$`));
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(emu.requests()).toBe(requests);
    expect(r.stdout).toBe('');
  });

  it('webhook listen --save into the state folder, sandbox --state / reset --state on the profiles file: exit 2', async () => {
    const { env, file } = withProfile(0o600, 0o700);
    const save = await trk(['webhook', 'listen', '--port', '0', '--save', path.join(env.TRK_STATE_DIR!, 'hooks')], { env });
    expect(save.code, save.stderr).toBe(2);
    expect(save.stderr).toMatch(/^trk: --save .* is in trk's state folder/);
    const reset = await trk(['sandbox', 'reset', '--state', file], { env });
    expect(reset.code, reset.stderr).toBe(2);
    expect(reset.stderr).toMatch(/^trk: --state .* is in trk's config folder/);
    expect(existsSync(file)).toBe(true);
    const start = await trk(['sandbox', 'start', '--port', '0', '--state', file], { env });
    expect(start.code, start.stderr).toBe(2);
    expect(existsSync(file)).toBe(true);
  });
});

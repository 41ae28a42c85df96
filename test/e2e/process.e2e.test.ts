// The process around the commands: what --help and --version load, Ctrl-C, and --sandbox.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, assertBuilt, baseEnv, startEmulator, trk } from './helpers.js';

/** Runs bin/trk.js with a loader hook that lists every module file it loads. */
function loadedModules(args: string[], env: NodeJS.ProcessEnv = baseEnv(), okCodes: readonly number[] = [0]): Promise<string[]> {
  assertBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-hooks-'));
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith('file:')) process.stderr.write('LOADED ' + r.url + '\\n'); return r; }\n`,
  );
  // Synchronous hooks where Node has them (22.15+): asynchronous ones run on a thread of their own whose
  // lines can be lost when a command as short as --version exits first.
  const register = path.join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import module from 'node:module';\n` +
      `if (module.registerHooks) module.registerHooks({ resolve(s, c, next) { const r = next(s, c); if (r.url.startsWith('file:')) process.stderr.write('LOADED ' + r.url + '\\n'); return r; } });\n` +
      `else module.register(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, path.join(ROOT, 'bin', 'trk.js'), ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!okCodes.includes(code ?? -1)) return reject(new Error(`exit ${code}: ${err}`));
      resolve(err.split('\n').filter((l) => l.startsWith('LOADED ')).map((l) => l.slice(7)));
    });
  });
}

const HEAVY = ['chalk', 'undici', 'conf', '@inquirer', 'cli-table3', 'csv-parse', 'csv-stringify'];

describe('start-up', () => {
  it.each([[['--help']], [['list', '--help']], [['help', 'auth', 'login']], [['stop', '-h']]])(
    'trk %s prints its page from the file the build wrote, and loads nothing else',
    async (args) => {
      const loaded = (await loadedModules(args)).map((u) => path.relative(ROOT, new URL(u).pathname));
      expect(loaded.filter((f) => !['bin/trk.js', 'dist/help-pages.js'].includes(f))).toEqual([]);
    },
  );

  it.each([
    [['--sandbox', '--help'], []],
    [['--sandbox', 'list', '--help'], ['list/declare.js']],
    [['--sandbox', 'stop', '--help'], ['items/declare.js']],
  ])('trk %s (a help the file does not hold) loads commander, the registry and that command\'s declarations, nothing heavy', async (args, declarations) => {
    const loaded = await loadedModules(args);
    // commander itself is required as CommonJS (src/commander.ts), which the hooks of Node 20 do not see.
    expect(loaded.some((u) => u.endsWith('/dist/commander.js'))).toBe(true);
    for (const name of HEAVY) expect(loaded.filter((u) => u.includes(`/node_modules/${name}`)), name).toEqual([]);
    // Nothing of trk's commands but the registry and these declarations (a loader thread's last lines can be lost
    // when a process this short exits, so what was loaded is checked as a subset).
    const commands = loaded.filter((u) => u.includes('/dist/commands/')).map((u) => u.replace(/.*\/dist\/commands\//, ''));
    expect(commands.filter((c) => !['define.js', 'registry.js', ...declarations].includes(c))).toEqual([]);
  });

  it('trk --version loads nothing but itself', async () => {
    expect((await loadedModules(['--version'])).map((u) => path.basename(u))).toEqual(['trk.js']);
  });

  it('one-shot commands with --json load neither undici, conf nor chalk (node:http carries one request at a time)', async () => {
    const emu = await startEmulator({ speed: 0 });
    try {
      for (const args of [['quota', '--json'], ['info', 'RR123456789CN', '--json'], ['list', '--json']]) {
        // info of a number not registered exits 1, having sent its request all the same.
        const loaded = await loadedModules(args, emu.env, [0, 1]);
        expect(loaded.some((u) => u.includes('/dist/api/transport-http.js')), args.join(' ')).toBe(true);
        for (const name of ['undici', 'conf', 'chalk']) expect(loaded.filter((u) => u.includes(`/node_modules/${name}`)), `${args.join(' ')}: ${name}`).toEqual([]);
      }
    } finally {
      await emu.close();
    }
  });
});

describe('Ctrl-C', () => {
  it('the first SIGINT stops the command with exit 130 and one line', async () => {
    const emu = await startEmulator({ speed: 0, latencyMs: 5_000 });
    try {
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'trk.js'), 'list', '--json'], { env: emu.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      // Wait until the request is in flight (it is held by the emulator's latency).
      for (let i = 0; i < 100 && emu.requests() === 0; i++) await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGINT');
      const code = await new Promise<number | null>((r) => child.on('close', r));
      expect(code).toBe(130);
      // --json: the last line is the error as JSON.
      expect(JSON.parse(err.trim().split('\n').at(-1)!), err).toMatchObject({ error: { kind: 'interrupted', exit_code: 130 } });
    } finally {
      await emu.close();
    }
  });
});

describe('--sandbox', () => {
  it('runs commands against the embedded emulator, keeping its state between commands', async () => {
    const env = baseEnv();
    const reg = await trk(['--sandbox', 'register', 'SB123456789CN', '--carrier', '3011', '--json'], { env });
    expect(reg.code, reg.stderr).toBe(0);
    const list = await trk(['--sandbox', 'list', '--json'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { number: string }[]).map((r) => r.number)).toEqual(['SB123456789CN']);
  });
});

// The process around the commands: what --help and --version load, Ctrl-C, and --sandbox.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STORE_KINDS } from '../store/kinds.js';
import { ROOT, assertBuilt, baseEnv, startEmulator, trk } from './helpers.js';

const pg = STORE_KINDS.find((k) => k.name === 'PostgreSQL')!;

interface Loaded {
  /** Files loaded, relative to the package root (bin/trk.js, lib/chunk-....js, node_modules/...). */
  files: string[];
  /** The compiled modules those chunks of lib/ hold (dist/...; lib/modules.json, written by the build). */
  modules: string[];
}

/** Runs bin/trk.js with a loader hook that lists every module file it loads, and Node's own modules at exit. */
function loadedModules(
  args: string[],
  env: NodeJS.ProcessEnv = baseEnv(),
  okCodes: readonly number[] = [0],
): Promise<Loaded> {
  assertBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-hooks-'));
  // Each URL is appended to a file before the module it names is loaded: lines on stderr written from the thread
  // of asynchronous hooks (Node before 22.15) can be lost when a command as short as --help exits first.
  const log = path.join(dir, 'loaded.txt');
  writeFileSync(log, '');
  const record = `if (r.url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, r.url + '\\n');`;
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';\n` +
      `export async function resolve(s, c, next) { const r = await next(s, c); ${record} return r; }\n`,
  );
  // Synchronous hooks where Node has them (22.15+: they see require() too), else asynchronous ones on a thread of
  // their own, which see no require(): CommonJS resolution (libsql is required) is then recorded where it happens.
  const register = path.join(dir, 'register.mjs');
  const required =
    `const resolveFilename = module._resolveFilename; module._resolveFilename = function (...a) { ` +
    `const f = resolveFilename.apply(this, a); if (f.startsWith('/')) appendFileSync(${JSON.stringify(log)}, ` +
    `pathToFileURL(f).href + '\\n'); return f; };`;
  writeFileSync(
    register,
    `import module from 'node:module';\nimport { appendFileSync } from 'node:fs';\n` +
      `import { pathToFileURL } from 'node:url';\n` +
      `if (module.registerHooks) module.registerHooks({ resolve(s, c, next) { const r = next(s, c); ${record} ` +
      `return r; } });\n` +
      `else { module.register(${JSON.stringify(pathToFileURL(hooks).href)}); ${required} }\n`,
  );
  const chunks = JSON.parse(readFileSync(path.join(ROOT, 'lib', 'modules.json'), 'utf8')) as Record<string, string[]>;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', pathToFileURL(register).href, path.join(ROOT, 'bin', 'trk.js'), ...args],
      {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!okCodes.includes(code ?? -1)) return reject(new Error(`exit ${code}: ${err}`));
      const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      const files = [...new Set(urls.map((u) => path.relative(ROOT, fileURLToPath(u))))];
      const modules = files.flatMap((f) => (f.startsWith('lib/') ? (chunks[f.slice(4)] ?? []) : []));
      resolve({ files, modules });
    });
  });
}

/**
 * Node's own modules (process.moduleLoadList) a run of bin/trk.js loaded; without loader hooks, which load their own.
 */
function loadedBuiltins(args: string[], env: NodeJS.ProcessEnv, okCodes: readonly number[] = [0]): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-builtins-'));
  const probe = path.join(dir, 'probe.cjs');
  writeFileSync(
    probe,
    `process.on('exit', () => process.stderr.write(process.moduleLoadList.filter((m) => ` +
      `m.startsWith('NativeModule ')).map((m) => 'BUILTIN ' + m.slice(13) + '\\n').join('')));\n`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', probe, path.join(ROOT, 'bin', 'trk.js'), ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!okCodes.includes(code ?? -1)) return reject(new Error(`exit ${code}: ${err}`));
      resolve(
        err
          .split('\n')
          .filter((l) => l.startsWith('BUILTIN '))
          .map((l) => l.slice(8)),
      );
    });
  });
}

/** The V8 flags a run of bin/trk.js set, each with the two functions that set it (`... BY setter < its caller`). */
function flagsSet(args: string[], env: NodeJS.ProcessEnv, okCodes: readonly number[]): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-flags-'));
  const probe = path.join(dir, 'probe.cjs');
  writeFileSync(
    probe,
    `const v8 = require('node:v8'); const set = v8.setFlagsFromString; const calls = [];\n` +
      `v8.setFlagsFromString = (flags) => { const by = new Error().stack.split('\\n').slice(2, 4).map((l) => ` +
      `/at (\\S+)/.exec(l)?.[1]); calls.push('FLAGS ' + flags + ' BY ' + by.join(' < ')); set(flags); };\n` +
      `process.on('exit', () => process.stderr.write(calls.join('\\n') + '\\n'));\n`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', probe, path.join(ROOT, 'bin', 'trk.js'), ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!okCodes.includes(code ?? -1)) return reject(new Error(`exit ${code}: ${err}`));
      resolve(err.split('\n').flatMap((l) => (l.startsWith('FLAGS ') ? [l.slice(6)] : [])));
    });
  });
}

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

const HEAVY = ['chalk', 'undici', 'conf', '@inquirer', 'cli-table3', 'csv-parse', 'csv-stringify', 'string-width'];

describe('start-up', () => {
  it.each([[['--help']], [['list', '--help']], [['help', 'auth', 'login']], [['stop', '-h']]])(
    'trk %s prints its page from the file the build wrote, and loads nothing else',
    async (args) => {
      const { files, modules } = await loadedModules(args);
      expect(files.filter((f) => !['bin/trk.js', 'lib/help-pages.js'].includes(f))).toEqual([]);
      expect(modules).toEqual(['dist/help-pages.js']);
    },
  );

  it.each([
    ['--sandbox', '--help'],
    ['--sandbox', 'list', '--help'],
    ['--sandbox', 'stop', '--help'],
  ])(
    'trk %s (a help the file does not hold) loads commander and the declarations, neither a command nor a package',
    async (...args) => {
      const { files, modules } = await loadedModules(args);
      expect(modules).toContain('dist/commands/registry.js');
      for (const name of HEAVY)
        expect(
          files.filter((f) => f.startsWith(`node_modules/${name}`)),
          name,
        ).toEqual([]);
      // What runs a command (its implementation, the item engine, the client, the rate budget) stays out of a help
      // page. (The context's own module, which builds them lazily and has no side effects, shares cli.ts's chunk.)
      const running = [
        'dist/commands/list/list-run.js',
        'dist/items/run.js',
        'dist/api/client.js',
        'dist/pacing/pacer.js',
      ];
      for (const heavy of running) {
        expect(modules, heavy).not.toContain(heavy);
      }
    },
  );

  it("the mirror's commands load the client of the mirror's database alone", async () => {
    const emu = await startEmulator({ speed: 0 });
    try {
      const env = { ...emu.env, TRK_DATA_DIR: path.join(String(emu.env.HOME), 'data') };
      const inFile = await loadedModules(['sync', '-q'], env);
      expect(inFile.files.some((f) => f.startsWith('node_modules/libsql'))).toBe(true);
      expect(
        inFile.files.filter((f) => f.startsWith('node_modules/postgres')),
        'a file mirror',
      ).toEqual([]);
      expect(inFile.modules).not.toContain('dist/store/postgres.js');
      if (pg.missing) return;
      const inDatabase = await loadedModules(['sync', '-q'], { ...env, TRK_DB: await pg.fresh() });
      expect(inDatabase.files.some((f) => f.startsWith('node_modules/postgres'))).toBe(true);
      expect(
        inDatabase.files.filter((f) => f.startsWith('node_modules/libsql')),
        'a database mirror',
      ).toEqual([]);
      expect(inDatabase.modules).not.toContain('dist/store/sqlite.js');
    } finally {
      await emu.close();
    }
  });

  it("a long run's optimising compilers are turned off by main, before the command's modules load", async () => {
    // Without a key each exits 4 before any request: what is checked is what was set by then.
    const env = baseEnv();
    for (const args of [['sync'], ['--profile', 'default', 'report', '--json'], ['webhook', 'listen', '--port', 'x']])
      expect(await flagsSet(args, env, [2, 4]), args.join(' ')).toContain(
        '--no-opt --no-maglev BY skipOptimisingCompilers < main',
      );
    for (const args of [
      ['info', 'RR123456789CN'],
      ['webhook', 'verify', '--secret', 'x'],
    ])
      expect(await flagsSet(args, env, [2, 4]), args.join(' ')).toEqual([]);
  });

  it('trk --version loads nothing but itself', async () => {
    expect((await loadedModules(['--version'])).files).toEqual(['bin/trk.js']);
  });

  it(
    'one-shot commands with --json load neither undici, conf nor chalk (node:http carries one request at a ' +
      'time), nor what they do not use',
    async () => {
      const emu = await startEmulator({ speed: 0 });
      try {
        for (const args of [
          ['quota', '--json'],
          ['info', 'RR123456789CN', '--json'],
          ['stop', 'RR123456789CN', '--json'],
          ['list', '--json'],
        ]) {
          // info and stop of a number not registered exit 1, having sent their request all the same.
          const { files, modules } = await loadedModules(args, emu.env, [0, 1]);
          const builtins = await loadedBuiltins(args, emu.env, [0, 1]);
          const what = args.join(' ');
          expect(modules, what).toContain('dist/api/transport-http.js');
          // (The Redis client is loaded only when a budget URL names Redis, libsql or postgres only when the mirror is
          // opened, string-width only for text laid out for people.)
          for (const name of ['undici', 'conf', 'chalk', '@redis', 'libsql', 'postgres', 'string-width']) {
            expect(
              files.filter((f) => f.startsWith(`node_modules/${name}`)),
              `${what}: ${name}`,
            ).toEqual([]);
          }
          // The pager, the progress line, the carrier lookup and the mirror are for other runs (a terminal, a file, a
          // name, --offline).
          const others = [
            'dist/output/pager.js',
            'dist/items/progress.js',
            'dist/carriers/lookup.js',
            'dist/mirror/open.js',
          ];
          others.push('dist/store/sqlite.js', 'dist/store/postgres.js');
          for (const unused of others) {
            expect(modules, `${what}: ${unused}`).not.toContain(unused);
          }
          // Node's file streams and promises (an ES import of node:fs, or process.stdin made for /dev/null) and
          // perf_hooks (performance.now()) cost every start a millisecond or two. (Node 20's own ES module loader
          // reads files through fs/promises.)
          const avoidable = [
            'internal/fs/streams',
            'perf_hooks',
            ...(NODE_MAJOR >= 22 ? ['internal/fs/promises'] : []),
          ];
          for (const builtin of avoidable) expect(builtins, `${what}: ${builtin}`).not.toContain(builtin);
        }
      } finally {
        await emu.close();
      }
    },
  );

  it('a table loads string-width, to measure text beyond ASCII as a terminal draws it', async () => {
    const emu = await startEmulator({ speed: 0 });
    try {
      const { files } = await loadedModules(['list', '-o', 'table'], emu.env);
      expect(files.some((f) => f.startsWith('node_modules/string-width'))).toBe(true);
    } finally {
      await emu.close();
    }
  });
});

describe('Ctrl-C', () => {
  it('the first SIGINT stops the command with exit 130 and one line', async () => {
    const emu = await startEmulator({ speed: 0, latencyMs: 5_000 });
    try {
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'trk.js'), 'list', '--json'], {
        env: emu.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      // Wait until the request is in flight (it is held by the emulator's latency), bounded.
      for (const deadline = Date.now() + 20_000; emu.requests() === 0 && child.exitCode === null; ) {
        if (Date.now() > deadline) throw new Error(`no request in 20 s: ${err}`);
        // Real time: the process starts on the machine's clock.
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(child.exitCode, err).toBeNull();
      child.kill('SIGINT');
      const code = await new Promise<number | null>((r) => child.on('close', r));
      expect(code).toBe(130);
      // --json: the last line is the error as JSON.
      expect(JSON.parse(err.trim().split('\n').at(-1)!), err).toMatchObject({
        error: { kind: 'interrupted', exit_code: 130 },
      });
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

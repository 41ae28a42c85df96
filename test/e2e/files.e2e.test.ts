// The files trk keeps and the files it writes: a profiles file others can read is made private with a warning; no
// file trk is told to write (--rejects, webhook listen --save, sandbox --state) may be one of its own; output that
// cannot be written (a full disk: /dev/full, or `ulimit -f`) ends in one line, exit 1. Commands run in this process;
// the ones writing to a full disk are processes of the built CLI, whose stdout is that file and whose file size
// limit is the shell's.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  baseEnv,
  budgetForAProcess,
  numbers,
  ROOT,
  startEmulator,
  trk,
  type Emulator,
} from './helpers.js';

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
  writeFileSync(
    file,
    JSON.stringify({
      current: 'default',
      profiles: { default: { 'base-url': emu.sandbox.url, 'api-key': emu.sandbox.key } },
    }),
  );
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

describe.skipIf(process.platform === 'win32')("files that hold customers' data", () => {
  // A umask of 0: a file or folder whose mode trk does not set itself would be open to everyone.
  let umask: number;
  beforeEach(() => {
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
  });

  /** A fresh machine on the emulator's account. */
  const freshEnv = (): NodeJS.ProcessEnv => ({
    ...baseEnv(),
    TRK_BASE_URL: emu.sandbox.url,
    TRK_API_KEY: emu.sandbox.key,
  });

  function input(env: NodeJS.ProcessEnv, prefix: string): string {
    const file = path.join(env.HOME!, `${prefix}.csv`);
    writeFileSync(file, `number,carrier\n${numbers(2, prefix).join(',3011\n')},3011\nbad,3011\n`);
    return file;
  }

  const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning:'));

  it('a mirror copied with mode 0644: sync --db sets it to 0600, warning once; the next sync is quiet', async () => {
    const env = freshEnv();
    const original = path.join(env.HOME!, 'mirror.db');
    const first = await trk(['sync', '--db', original], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(modeOf(original)).toBe(0o600);
    const copy = path.join(env.HOME!, 'copy.db');
    writeFileSync(copy, readFileSync(original), { mode: 0o644 });
    const synced = await trk(['sync', '--db', copy], { env });
    expect(synced.code, synced.stderr).toBe(0);
    expect(modeOf(copy)).toBe(0o600);
    expect(warnings(synced.stderr)).toEqual([
      `warning: the mirror file ${copy} could be read by others (mode 0644), and it holds customers' data: set to 0600`,
    ]);
    expect(warnings((await trk(['sync', '--db', copy], { env })).stderr)).toEqual([]);
  });

  it('rejects trk names and runs it remembers: 0600 in 0700 folders, a folder found open set so', async () => {
    const env = freshEnv();
    const rejects = path.join(env.TRK_STATE_DIR!, 'rejects');
    mkdirSync(rejects, { recursive: true, mode: 0o755 });
    const r = await trk(['register', '-f', input(env, 'PO'), '--skip-invalid'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(warnings(r.stderr)).toEqual([
      `warning: the rejects folder ${rejects} could be read by others (mode 0755), and it holds customers' data: ` +
        'set to 0700',
    ]);
    for (const folder of ['rejects', 'runs', 'sent']) {
      const dir = path.join(env.TRK_STATE_DIR!, folder);
      expect([folder, modeOf(dir)]).toEqual([folder, 0o700]);
      const files = readdirSync(dir);
      expect(files.length, folder).toBeGreaterThan(0);
      for (const f of files) expect([f, modeOf(path.join(dir, f))]).toEqual([f, 0o600]);
    }
  });

  it("--rejects in the user's folder: the folder left as it is; the file 0600, one found 0644 set so", async () => {
    const env = freshEnv();
    const desktop = path.join(env.HOME!, 'Desktop');
    mkdirSync(desktop, { mode: 0o755 });
    const made = path.join(desktop, 'made.csv');
    const first = await trk(['register', '-f', input(env, 'PN'), '--skip-invalid', '--rejects', made], { env });
    expect(first.code, first.stderr).toBe(3);
    expect(modeOf(made)).toBe(0o600);
    expect(warnings(first.stderr)).toEqual([]);
    const found = path.join(desktop, 'found.csv');
    writeFileSync(found, 'old\n', { mode: 0o644 });
    const r = await trk(['register', '-f', input(env, 'PF'), '--skip-invalid', '--rejects', found], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(modeOf(found)).toBe(0o600);
    expect(readFileSync(found, 'utf8')).toMatch(/^number,carrier,input_line/);
    expect(modeOf(desktop)).toBe(0o755);
    expect(warnings(r.stderr)).toEqual([
      `warning: the rejects file ${found} could be read by others (mode 0644), and it holds customers' data: ` +
        'set to 0600',
    ]);
  });
});

describe('files trk is told to write are never its own', () => {
  function input(env: NodeJS.ProcessEnv): string {
    const file = path.join(env.HOME!, 'in.csv');
    writeFileSync(
      file,
      `number,carrier\n${numbers(2, 'OW')
        .map((n) => `${n},3011`)
        .join('\n')}\nbad,3011\n`,
    );
    return file;
  }

  it.each([
    [
      'the profiles file',
      (env: NodeJS.ProcessEnv) => path.join(env.TRK_CONFIG_DIR!, 'config.json'),
      /config folder, which holds the API keys/,
    ],
    [
      'a file in the state folder',
      (env: NodeJS.ProcessEnv) => path.join(env.TRK_STATE_DIR!, 'runs', 'rejects.csv'),
      /state folder/,
    ],
    [
      'a link to the profiles file',
      (env: NodeJS.ProcessEnv) => {
        const link = path.join(env.HOME!, 'rejects.csv');
        symlinkSync(path.join(env.TRK_CONFIG_DIR!, 'config.json'), link);
        return link;
      },
      /config folder/,
    ],
  ])('--rejects %s: exit 2, nothing sent, the file untouched', async (_what, target, says) => {
    const { env, file } = withProfile(0o600, 0o700);
    mkdirSync(env.TRK_STATE_DIR!, { recursive: true });
    const before = readFileSync(file, 'utf8');
    const requests = emu.requests();
    const r = await trk(['register', '-f', input(env), '--skip-invalid', '--rejects', target(env)], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^trk: --rejects .* is in trk's ${says.source}.*: give a path outside it; nothing was done\\n$`),
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(emu.requests()).toBe(requests);
    expect(r.stdout).toBe('');
  });

  it(
    'webhook listen --save into the state folder, sandbox --state / reset --state on the profiles ' + 'file: exit 2',
    async () => {
      const { env, file } = withProfile(0o600, 0o700);
      const save = await trk(['webhook', 'listen', '--port', '0', '--save', path.join(env.TRK_STATE_DIR!, 'hooks')], {
        env,
      });
      expect(save.code, save.stderr).toBe(2);
      expect(save.stderr).toMatch(/^trk: --save .* is in trk's state folder/);
      const reset = await trk(['sandbox', 'reset', '--state', file], { env });
      expect(reset.code, reset.stderr).toBe(2);
      expect(reset.stderr).toMatch(/^trk: --state .* is in trk's config folder/);
      expect(existsSync(file)).toBe(true);
      const start = await trk(['sandbox', 'start', '--port', '0', '--state', file], { env });
      expect(start.code, start.stderr).toBe(2);
      expect(existsSync(file)).toBe(true);
    },
  );
});

/**
 * trk with its output files limited to `kb` KB (`ulimit -f`: a write past it fails with EFBIG, as on a full disk)
 * and stdout sent to `stdout` (a path, or /dev/full).
 */
async function limited(args: readonly string[], env: NodeJS.ProcessEnv, opts: { kb?: number; stdout: string }) {
  assertBuilt();
  await budgetForAProcess(env);
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const out = openSync(opts.stdout, 'w');
    const limit = opts.kb === undefined ? '' : `ulimit -f ${opts.kb}; `;
    const child = spawn(
      'bash',
      ['-c', `${limit}exec "$@"`, 'bash', process.execPath, path.join(ROOT, 'bin', 'trk.js'), ...args],
      {
        env: { ...env, TRK_ERROR_FORMAT: 'text' },
        stdio: ['ignore', out, 'pipe'],
      },
    );
    closeSync(out);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A bound in real time on a process that hangs: it runs on the machine's clock.
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, stderr });
    });
  });
}

/** The last line of stderr, and that no stack trace came before it. */
function lastLine(stderr: string): string {
  expect(stderr).not.toMatch(/^\s+at /m);
  return stderr.trim().split('\n').at(-1) ?? '';
}

describe.skipIf(process.platform === 'win32')('output that cannot be written (a full disk)', () => {
  let registered: string[];
  beforeAll(async () => {
    registered = numbers(60, 'FD');
    const r = await trk(['-q', 'register', ...registered, '--carrier', '3011'], { env: emu.env });
    expect(r.code, r.stderr).toBe(0);
  });

  it('stdout on /dev/full: one line naming it and the cause, exit 1, no stack trace', async () => {
    const r = await limited(['info', registered[0]!, '--json'], emu.env, { stdout: '/dev/full' });
    expect(r.code, r.stderr).toBe(1);
    expect(lastLine(r.stderr)).toBe('trk: cannot write to /dev/full (stdout): no space left on device (ENOSPC)');
  });

  it('stdout to a file that cannot grow: the line names the file; the temporary folder is left empty', async () => {
    const tmp = mkdtempSync(path.join(emu.env.HOME!, 'tmp-'));
    const env = { ...emu.env, TMPDIR: tmp };
    const file = path.join(emu.env.HOME!, 'list.json');
    const r = await limited(['list', '--json', '--all'], env, { kb: 8, stdout: file });
    expect(r.code, r.stderr).toBe(1);
    expect(lastLine(r.stderr)).toBe(`trk: cannot write to ${file} (stdout): file too large (EFBIG)`);
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).toThrow();
    // Node 22+ keeps its compile cache (bin/trk.js) in the temporary folder: Node's, not a file trk left.
    expect(readdirSync(tmp).filter((f) => f !== 'node-compile-cache')).toEqual([]);
  });

  it(
    '--rejects that cannot be written, with a slow service: the summary, then one line, exit 1; no ' + 'temporary left',
    async () => {
      const env = { ...emu.env };
      const dir = mkdtempSync(path.join(env.HOME!, 'rejects-'));
      const input = path.join(dir, 'in.csv');
      const valid = numbers(5, 'FR');
      const invalid = Array.from({ length: 300 }, (_, i) => `b!d${i},3011,${'t'.repeat(90)}`);
      writeFileSync(
        input,
        `number,carrier,tag\n${valid.map((n) => `${n},3011,ok`).join('\n')}\n${invalid.join('\n')}\n`,
      );
      emu.sandbox.setFaults({ latencyMs: 300 });
      try {
        const r = await limited(
          ['register', '-f', input, '--skip-invalid', '--rejects', path.join(dir, 'rejects.csv')],
          env,
          { kb: 16, stdout: '/dev/null' },
        );
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toMatch(/registered\s+5/);
        expect(lastLine(r.stderr)).toBe(
          `trk: cannot write the rejects file ${path.join(dir, 'rejects.csv')}: file too large (EFBIG): make room ` +
            `and run the same command again: nothing is sent twice, and the rejects file is written in full`,
        );
        expect(readdirSync(dir)).toEqual(['in.csv']);
      } finally {
        emu.sandbox.setFaults({ latencyMs: 0 });
      }
      // As the line says: once there is room, the same command writes the rejects and sends nothing.
      const sends = emu.sandbox.state().requests.byOperation['v2/register'] ?? 0;
      const again = await trk(['register', '-f', input, '--skip-invalid', '--rejects', path.join(dir, 'rejects.csv')], {
        env,
      });
      expect(again.code, again.stderr).toBe(3);
      expect(emu.sandbox.state().requests.byOperation['v2/register'] ?? 0).toBe(sends);
      expect(readFileSync(path.join(dir, 'rejects.csv'), 'utf8').trim().split('\n')).toHaveLength(301);
    },
  );
});

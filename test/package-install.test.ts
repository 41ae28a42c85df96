// The README's install line on a fresh clone: `npm install -g .` into a scratch prefix, then the installed trk
// runs. It fetches the development tools from the npm registry (or npm's cache) and builds, a minute or more, so
// it runs only when asked: TRK_TEST_INSTALL=1 npx vitest run test/package-install.test.ts

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './e2e/helpers.js';

const asked = process.env.TRK_TEST_INSTALL === '1';
const hasMan = spawnSync('sh', ['-c', 'command -v man'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!asked)('npm install -g . on a fresh clone (TRK_TEST_INSTALL=1)', () => {
  it('installs and builds without the development tools around, and the installed trk runs', () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'trk-install-'));
    const clone = path.join(scratch, 'clone');
    const prefix = path.join(scratch, 'prefix');
    // What is committed, as a user's clone has it: no node_modules, no build.
    execFileSync('git', ['clone', '--quiet', ROOT, clone]);
    expect(existsSync(path.join(clone, 'lib'))).toBe(false);
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
    execFileSync('npm', ['install', '-g', '.', '--prefix', prefix, '--no-audit', '--no-fund'], {
      cwd: clone,
      env,
      stdio: 'pipe',
    });
    const trk = path.join(prefix, 'bin', 'trk');
    const version = execFileSync(trk, ['--version'], { cwd: scratch, encoding: 'utf8' });
    expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = execFileSync(trk, ['register', '--help'], { cwd: scratch, encoding: 'utf8' });
    expect(help).toMatch(/Usage: trk register/);
    // The global prefix holds trk alone: its tools stay in the checkout it was built in.
    expect(readdirSync(path.join(prefix, 'lib', 'node_modules'))).toEqual(['trk']);
    // The man pages are linked into the prefix's section 1, where man looks beside its bin/ (no MANPATH needed).
    expect(existsSync(path.join(prefix, 'share', 'man', 'man1', 'trk-sync.1'))).toBe(true);
    if (hasMan) {
      const { MANPATH: _, ...manEnv } = env;
      const where = execFileSync('man', ['-w', 'trk-sync'], {
        env: { ...manEnv, PATH: `${path.join(prefix, 'bin')}:${env.PATH ?? ''}` },
        encoding: 'utf8',
      });
      // The linked page (npm links it to the package's own file, which man may name instead).
      expect(realpathSync(where.trim())).toBe(realpathSync(path.join(prefix, 'share', 'man', 'man1', 'trk-sync.1')));
    }
  }, 900_000);
});

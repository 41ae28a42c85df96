// Man pages generated from the command tree (src/build/write-man-pages.ts): committed in man/man1/ as the build writes
// them, shipped by package.json, valid roff that names what `trk help` names, and found by man from a checkout
// (`man -M ./man trk-sync`, MANPATH=./man) where man is installed.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/commands/registry.js';
import { globalOptions } from '../src/commands/define.js';
import { manPages, MAN_DIR, MAN_ROOT, withManList } from '../src/build/write-man-pages.js';
import { commandPaths } from '../src/build/write-help-pages.js';
import { ROOT } from './e2e/helpers.js';

const pages = await manPages();
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
const hasGroff = has('groff');
const hasMan = has('man');

describe('man pages', () => {
  it('one for trk and one for each command (trk-auth-login.1), committed as the build writes them', async () => {
    const names = (await commandPaths()).map((p) => `${['trk', ...p].join('-')}.1`);
    expect(Object.keys(pages).sort()).toEqual(names.sort());
    const committed = readdirSync(path.join(ROOT, MAN_DIR)).sort();
    expect(committed).toEqual(Object.keys(pages).sort());
    for (const [name, text] of Object.entries(pages))
      expect(readFileSync(path.join(ROOT, MAN_DIR, name), 'utf8'), `${name} (run "npm run build")`).toBe(text);
  });

  it('are shipped: package.json lists man/ in files and each page in man, as the build writes it', () => {
    const text = readFileSync(path.join(ROOT, 'package.json'), 'utf8');
    const pkg = JSON.parse(text) as { files: string[]; man: string[] };
    expect(pkg.files).toContain(MAN_ROOT);
    // The build lists a new command's page (write-man-pages.ts), leaving the rest of package.json as it stands.
    expect(withManList(text, Object.keys(pages)), 'package.json (run "npm run build")').toBe(text);
    const moved = withManList(text.replace('"./man/man1/trk.1"', '"./man/man1/trk-gone.1"'), Object.keys(pages));
    expect(moved).toBe(text);
    expect([...pkg.man].sort(), 'package.json "man"').toEqual(
      Object.keys(pages)
        .map((n) => `./${MAN_DIR}/${n}`)
        .sort(),
    );
  });

  it('trk.1 names every command, every global option and the exit codes', async () => {
    const program = await buildProgram(async () => {}, '0.0.0');
    const text = pages['trk.1']!;
    expect(text).toMatch(/^\.TH "TRK" "1"/);
    for (const c of program.commands.filter((c) => c.name() !== '__complete'))
      expect(text).toContain(`\\fB${c.name().replace(/-/g, '\\-')}\\fR`);
    for (const o of globalOptions()) expect(text).toContain(`\\fB${o.long!.replace(/-/g, '\\-')}\\fR`);
    expect(text).toContain('.SH EXIT STATUS');
  });

  it("a command's page has its synopsis, its options, its examples and where the global ones are", () => {
    const text = pages['trk-register.1']!;
    expect(text).toContain('.SH NAME\ntrk\\-register \\- register tracking numbers');
    expect(text).toContain('.SH SYNOPSIS\n\\fBtrk register\\fR [options] [numbers...]');
    expect(text).toContain('\\fB\\-f\\fR, \\fB\\-\\-file\\fR \\fI<file>\\fR');
    expect(text).toContain('trk register \\-f numbers.csv \\-\\-tag batch\\-7');
    expect(text).toContain('.SH GLOBAL OPTIONS');
    expect(pages['trk-auth.1']).toContain('\\fBtrk\\-auth\\-login\\fR(1)');
  });

  it('are found by man from a checkout: man -M ./man trk-sync, and MANPATH=./man', (ctx) => {
    if (!hasMan) ctx.skip('man is not installed here (Debian: apt-get install man-db)');
    const env: NodeJS.ProcessEnv = { ...process.env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80', LANG: 'C.UTF-8' };
    const where = spawnSync('man', ['-M', MAN_ROOT, '-w', 'trk-sync'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(where.status, where.stderr).toBe(0);
    expect(path.resolve(ROOT, where.stdout.trim())).toBe(path.join(ROOT, MAN_DIR, 'trk-sync.1'));
    const { MANPATH: _, ...rest } = env;
    const byPath = spawnSync('man', ['-w', 'trk-auth-login'], { cwd: ROOT, env: { ...rest, MANPATH: MAN_ROOT } });
    expect(byPath.status, String(byPath.stderr)).toBe(0);
    if (!hasGroff) return;
    const page = spawnSync('man', ['-M', MAN_ROOT, 'trk-sync'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(page.status, page.stderr).toBe(0);
    expect(page.stdout).toMatch(/^NAME\n {7}trk-sync +- +keep +a +local +mirror/m);
  });

  it.runIf(hasGroff)('are roff that groff reads without a warning', () => {
    for (const name of Object.keys(pages)) {
      const r = spawnSync('groff', ['-man', '-ww', '-z', path.join(ROOT, MAN_DIR, name)], { encoding: 'utf8' });
      expect(r.status, name).toBe(0);
      expect(r.stderr, name).toBe('');
    }
  });
});

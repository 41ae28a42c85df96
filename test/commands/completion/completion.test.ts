// trk completion SHELL: the completion script of the command tree trk runs, for each shell; another shell refused.
import { describe, expect, it } from 'vitest';
import { LISTED } from '../../../src/commands/listed.js';
import { baseEnv, trk } from '../../e2e/helpers.js';

/** The commands trk --help lists (not the hidden __complete). */
const TOP = LISTED.filter((c) => !c.hidden).map((c) => c.name);

describe('trk completion', () => {
  it.each([
    ['bash', 'bash'],
    ['zsh', 'zsh'],
    ['fish', 'fish'],
    ['powershell', 'PowerShell'],
  ])('%s: the script for that shell, every command of the tree in it', async (shell, named) => {
    const r = await trk(['completion', shell], { env: baseEnv() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^(#compdef trk\\n)?# ${named} completion for trk `));
    expect(TOP.length).toBeGreaterThan(20);
    for (const command of TOP) expect(r.stdout, command).toMatch(new RegExp(`\\b${command}\\b`));
  });

  it('refuses a shell it has no script for, exit 2, nothing on stdout', async () => {
    const r = await trk(['completion', 'tcsh'], { env: baseEnv() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/tcsh/);
  });
});

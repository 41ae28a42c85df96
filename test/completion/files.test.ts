import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPLETION_FILES, completionScripts } from '../../src/build/write-completions.js';
import { commandOf } from '../../src/commands/registry.js';
import { runProgram } from '../commands/run-program.js';
import { createFake } from '../fake-context.js';
import { powershellBalanced } from './powershell-syntax.js';

describe('completions/', () => {
  it.each(Object.entries(COMPLETION_FILES))(
    '%s script matches the command tree (run "npm run build" when stale)',
    async (shell, file) => {
      const committed = readFileSync(new URL(`../../completions/${file}`, import.meta.url), 'utf8');
      expect(committed).toBe((await completionScripts())[shell as keyof typeof COMPLETION_FILES]);
    },
  );

  it.each(Object.entries(COMPLETION_FILES))(
    'trk completion %s prints the shipped script, declaring no command but its own',
    async (shell, file) => {
      expect(commandOf(['completion', shell])).toBe('completion');
      const fake = createFake();
      expect((await runProgram(fake, ['completion', shell])).code).toBe(0);
      const shipped = readFileSync(new URL(`../../completions/${file}`, import.meta.url), 'utf8');
      expect(fake.io.stdoutText()).toBe(shipped);
    },
  );

  it('completes enum values of real commands', async () => {
    const bash = (await completionScripts()).bash;
    expect(bash).toContain("'list|--status') printf '%s\\n' 'NotFound'");
    expect(bash).toContain("'register|--lang') printf '%s\\n' 'en'");
    expect(bash).toContain("'info|--sub-status') printf '%s\\n' 'NotFound_Other'");
    expect(bash).toContain("'completion') printf '%s\\n' 'bash' 'zsh' 'fish'");
  });
});

describe('the PowerShell script of the real command tree', () => {
  it('names every command path and every flag', async () => {
    const { completionTree } = await import('../../src/completion/spec.js');
    const { buildProgram } = await import('../../src/commands/registry.js');
    const { HELP_TOPIC_DESCRIPTIONS } = await import('../../src/commands/help/help.js');
    const tree = completionTree(await buildProgram(async () => {}, '0.0.0'), HELP_TOPIC_DESCRIPTIONS);
    const script = (await completionScripts()).powershell;
    expect(powershellBalanced(script)).toBe(true);
    const walk = (node: typeof tree, path: string[]): void => {
      if (node.commands.length > 0)
        expect(script).toContain(
          `$__trkSubcommands['${path.join(' ')}'] = @(${node.commands.map((c) => `'${c.name}'`).join(', ')})`,
        );
      for (const flag of node.options.flatMap((o) => o.flags))
        expect(script).toMatch(new RegExp(`\\$__trkOptions\\['${path.join(' ')}'\\] = @\\(.*'${flag}'`));
      for (const c of node.commands) walk(c, [...path, c.name]);
    };
    walk(tree, []);
  });
});

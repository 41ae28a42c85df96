import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPLETION_FILES, completionScripts } from '../../src/completion/write-files.js';

describe('completions/', () => {
  it.each(Object.entries(COMPLETION_FILES))('%s script matches the command tree (run "npm run build" when stale)', async (shell, file) => {
    const committed = readFileSync(new URL(`../../completions/${file}`, import.meta.url), 'utf8');
    expect(committed).toBe((await completionScripts())[shell as keyof typeof COMPLETION_FILES]);
  });

  it('completes enum values of real commands', async () => {
    const bash = (await completionScripts()).bash;
    expect(bash).toContain("'list|--status') printf '%s\\n' 'NotFound'");
    expect(bash).toContain("'register|--lang') printf '%s\\n' 'en'");
    expect(bash).toContain("'info|--sub-status') printf '%s\\n' 'NotFound_Other'");
    expect(bash).toContain("'completion') printf '%s\\n' 'bash' 'zsh' 'fish'");
  });
});

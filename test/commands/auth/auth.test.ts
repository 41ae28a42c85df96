// trk auth, the group of the profiles' commands: what its help lists and what it does typed alone.
import { describe, expect, it } from 'vitest';
import { exampleCommand, groupHelp } from '../group-help.js';

const COMMANDS = ['login', 'switch', 'list', 'status', 'logout', 'help'];

describe('trk auth', () => {
  it('lists its commands in its help, and its examples run them', async () => {
    const help = await groupHelp(['auth', '--help']);
    expect(help.code).toBe(0);
    expect(help.commands).toEqual(COMMANDS);
    expect(help.examples.length).toBeGreaterThan(0);
    for (const example of help.examples.filter((e) => e.startsWith('trk auth '))) {
      expect(COMMANDS, example).toContain(exampleCommand('auth', example));
    }
  });

  it('typed alone prints its help on stderr and exits 2, nothing on stdout', async () => {
    const alone = await groupHelp(['auth']);
    expect(alone.code).toBe(2);
    expect(alone.stdout).toBe('');
    expect(alone.page).toBe((await groupHelp(['auth', '--help'])).page);
  });
});

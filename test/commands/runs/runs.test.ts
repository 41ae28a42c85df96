// trk runs, the group of the remembered runs' commands: what its help lists, and `trk runs` alone as trk runs list.
import { describe, expect, it } from 'vitest';
import { trk } from '../../e2e/helpers.js';
import { exampleCommand, groupHelp } from '../group-help.js';
import { rememberedRuns } from './remembered-runs.js';

const COMMANDS = ['list', 'forget', 'help'];
const runs = rememberedRuns();

describe('trk runs', () => {
  it('lists its commands in its help, and its examples run them or the group alone', async () => {
    const help = await groupHelp(['runs', '--help']);
    expect(help.code).toBe(0);
    expect(help.commands).toEqual(COMMANDS);
    expect(help.examples).toContain('trk runs');
    for (const example of help.examples.filter((e) => e.startsWith('trk runs '))) {
      expect(COMMANDS, example).toContain(exampleCommand('runs', example));
    }
  });

  it('typed alone lists the runs, as trk runs list does, its flags too', async () => {
    await runs.register('numbers.txt', 2, 'RG');
    const alone = await trk(['runs', '--json'], { env: runs.env });
    expect(alone.code, alone.stderr).toBe(0);
    expect(JSON.parse(alone.stdout)).toHaveLength(1);
    expect(alone.stdout).toBe((await trk(['runs', 'list', '--json'], { env: runs.env })).stdout);
  });
});

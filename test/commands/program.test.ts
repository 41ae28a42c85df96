// Every command's flags, parsed by commander into the typed options and run against a fake client: what
// reaches the wire for a given command line. No network.
import { describe, expect, it } from 'vitest';
import { runLine as parse } from './run-program.js';

describe('command lines → requests', () => {
  it.each([
    ['stop', 'stoptrack'],
    ['retrack', 'retrack'],
    ['push', 'push'],
    ['info', 'gettrackinfo'],
  ])('%s NUMBER --carrier → %s', async (cmd, op) => {
    const { calls } = await parse([cmd, 'AAA11111', '--carrier', '190012', '--json']);
    expect(calls).toEqual([{ op, body: [{ number: 'AAA11111', carrier: 190012 }], opts: { retry: false } }]);
  });

  it('global options land in the context wherever they are placed', async () => {
    const { fake } = await parse([
      '-q',
      'stop',
      'AAA11111',
      '-o',
      'ndjson',
      '--verbose',
      '--no-color',
      '--profile',
      'work',
    ]);
    expect(fake.ctx.global).toEqual({ quiet: true, output: 'ndjson', verbose: true, color: false, profile: 'work' });
    expect(fake.io.stderrText()).toBe('');
  });
});

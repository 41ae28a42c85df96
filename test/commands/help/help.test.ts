// trk help: the exit-codes topic, and an unknown topic refused.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { exitCodeText, runHelp } from '../../../src/commands/help/help.js';
import { EXIT_CODE_HELP } from '../../../src/core/exit-codes.js';
import { createFake } from '../../fake-context.js';

describe('trk help', () => {
  it('exit-codes lists every code of the table', async () => {
    const fake = createFake();
    await runHelp({ topic: ['exit-codes'], program: new Command('trk') }, fake.ctx);
    expect(fake.io.stdoutText()).toBe(exitCodeText());
    for (const [code, text] of EXIT_CODE_HELP)
      expect(fake.io.stdoutText().replace(/\s+/g, ' ')).toContain(`${code} ${text}`);
  });

  it('an unknown topic is a usage error', async () => {
    const fake = createFake();
    await expect(runHelp({ topic: ['nope'], program: new Command('trk') }, fake.ctx)).rejects.toMatchObject({
      exitCode: 2,
    });
  });
});

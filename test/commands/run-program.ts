// A command line through the real command tree (commander parsing, the typed options, the run function)
// against a fake context: what reaches the wire and the exit code, with no process and no network.

import type { Command } from 'commander';
import { errorOutcome, readGlobalOptions } from '../../src/cli.js';
import { applyOutputFlags } from '../../src/commands/define.js';
import { buildProgram } from '../../src/commands/registry.js';
import type { GlobalOptions } from '../../src/context/context.js';
import { createFake, type Fake, type FakeOptions } from '../fake-context.js';

/** The exit code as the CLI would give it, and what was thrown (undefined when nothing was). */
export async function runProgram(fake: Fake, argv: string[]): Promise<{ code: number | undefined; error: unknown }> {
  let code: number | undefined;
  let error: unknown;
  let program: Command | undefined;
  program = await buildProgram(async (load, output) => {
    // The fake context stands for one made from the settled options, as src/cli.ts makes it.
    const global: GlobalOptions = fake.ctx.global;
    Object.assign(global, readGlobalOptions(program!.opts()));
    if (output) applyOutputFlags(global, output);
    const run = await load();
    code = (await run(fake.ctx)) ?? 0;
  }, '0.0.0');
  const silence = (c: Command) => {
    c.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
    c.commands.forEach(silence);
  };
  silence(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    error = err;
    code = errorOutcome(err).exitCode;
  }
  return { code, error };
}

/** A command line run on a new fake context: the exit code, the calls the client recorded, and the fake. */
export async function runLine(argv: string[], opts: FakeOptions = {}) {
  const fake = createFake(opts);
  const { code } = await runProgram(fake, argv);
  return { code, calls: fake.calls, sent: fake.sent, fake };
}

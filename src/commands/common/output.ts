// What a command asks of the renderers, from its flags and the environment: the format, the columns named with
// --columns, and how tables show times (the reader's zone from TZ, ages with --relative, counted from the
// service's clock).

import type { Context } from '../../context/context.js';
import type { IO } from '../../io/io.js';
import type { OutputFormat } from '../../output/format.js';
import type { Pager } from '../../output/pager.js';
import type { OutputSpec } from '../../output/render.js';
import { zoneOfEnv } from '../../output/times.js';

export function outputOf(ctx: Context, format: OutputFormat | undefined = ctx.global.output): OutputSpec {
  return {
    format,
    columns: ctx.global.columns,
    header: ctx.global.header,
    times: {
      zone: zoneOfEnv(ctx.env),
      relative: ctx.global.relative === true,
      // Read when a row is drawn, not when the output is set up: the service's clock is known once it has answered
      // (under --sandbox, once the emulator is started).
      get now() {
        return ctx.now();
      },
    },
  };
}

/**
 * The pager for the command's output when it applies (a terminal, --no-pager not given; see output/pager.ts).
 * Its code is loaded only for a terminal: `trk list --json | jq` and `trk info N --json` never need it.
 */
export async function startPagerFor(ctx: Context): Promise<Pager | undefined> {
  if (!ctx.io.stdoutIsTTY) return undefined;
  return (await import('../../output/pager.js')).startPager(ctx.io, ctx.env, { enabled: ctx.global.pager !== false });
}

/**
 * Runs `print` with an IO whose output goes through the pager when it applies (a terminal, --no-pager not given;
 * see output/pager.ts), and waits for the reader to quit it.
 */
export async function paged(ctx: Context, print: (io: IO) => Promise<void>): Promise<void> {
  const pager = await startPagerFor(ctx);
  try {
    await print(pager?.io ?? ctx.io);
  } finally {
    await pager?.end();
  }
}

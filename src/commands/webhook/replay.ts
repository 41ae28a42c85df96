// trk webhook replay DIR... --forward-to URL: send notifications kept by `trk webhook listen` (its --save folder,
// or the forward queue's folder of forwards that failed) to the app again, as the listener forwards them.

import { resolve, sep } from 'node:path';
import { stateDir } from '../../config/paths.js';
import { requestTimeoutMs } from '../../config/timeout.js';
import type { Context } from '../../context/context.js';
import { stopExitCode, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import type { Column } from '../../output/render.js';
import { outputOf } from '../common/output.js';
import { fmt, plural } from '../../core/text.js';
import { replay, savedBodies, type Replayed } from '../../webhook/replay.js';
import { parseForwardUrl, queueRoot } from './common.js';
import { printRows } from '../../output/render.js';
import { examples, running, type Declare } from '../define.js';

export interface WebhookReplayOptions {
  paths: string[];
  forwardTo?: string | undefined;
}

const COLUMNS: readonly Column<Replayed>[] = [
  { key: 'file', header: 'FILE', value: (r) => r.file },
  { key: 'event', header: 'EVENT', value: (r) => r.event },
  { key: 'number', header: 'NUMBER', value: (r) => r.number },
  { key: 'status', header: 'STATUS', value: (r) => r.status ?? r.error ?? null },
  {
    key: 'forwarded',
    header: 'FORWARDED',
    value: (r) => r.forwarded,
    style: (t, r, c) => (r.forwarded ? c.green(t) : c.red(t)),
  },
];

/** Exit 0 when the app took every one, 1 when not (and says how many were not sent). */
export async function runWebhookReplay(opts: WebhookReplayOptions, ctx: Context): Promise<number> {
  if (opts.forwardTo === undefined) {
    throw new UsageError(
      '--forward-to is required',
      'give the URL of the app, e.g. --forward-to http://127.0.0.1:3000/webhook',
    );
  }
  const target = parseForwardUrl(opts.forwardTo);
  const files = await savedBodies(opts.paths);
  // The listener's queue folders: what the app takes is removed from them (a --save folder is never changed).
  const queue = resolve(queueRoot(stateDir(ctx.env))) + sep;
  const done = await replay(files, {
    io: ctx.io,
    target,
    timeoutMs: requestTimeoutMs(ctx.global.timeout, ctx.env),
    fromQueue: (file) => resolve(file).startsWith(queue),
    signal: ctx.signal,
    now: () => ctx.now(),
  });
  if (ctx.global.output !== undefined) {
    await printRows(ctx.io, done, COLUMNS, outputOf(ctx));
  }
  const ok = done.filter((r) => r.forwarded).length;
  const notSent = files.length - done.length;
  const failed = done.length - ok;
  const parts = [
    `${fmt(ok)} forwarded`,
    failed > 0 ? `${fmt(failed)} failed` : '',
    notSent > 0 ? `${fmt(notSent)} not sent` : '',
  ];
  const line = `replayed ${plural(files.length, 'notification')}: ${parts.filter(Boolean).join(', ')}`;
  if (ok === files.length) {
    ctx.info(line);
    return EXIT.ok;
  }
  if (ctx.signal.aborted) {
    ctx.io.err(`${line} (interrupted)`);
    return stopExitCode(ctx.signal);
  }
  ctx.io.err(notSent > 0 ? `${line} (the app could not be reached: stopped)` : line);
  return EXIT.failure;
}

export const declaration: Declare = (cmd, invoke) =>
  cmd
    .description('send notifications kept by "webhook listen" (--save, or forwards that failed) to the app again')
    .argument('<path...>', 'folders (or .json files) of saved notifications')
    .option('--forward-to <url>', 'the app to send them to, with the headers received (the sign header among them)')
    .addHelpText(
      'after',
      examples(
        'trk webhook replay ~/.local/state/trk/webhook-queue/* --forward-to http://localhost:3000/hook',
        'trk webhook replay ./hooks --forward-to http://localhost:3000/hook --json',
      ),
    )
    .action((paths, o) => running(invoke, (ctx) => runWebhookReplay({ paths, forwardTo: o.forwardTo }, ctx)));

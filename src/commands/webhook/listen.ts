// trk webhook listen: receive the notifications the service sends, verify, print, save and forward them, and keep
// them in the account's mirror (--store), until Ctrl-C; then sum up.

import { stateDir } from '../../config/paths.js';
import { CredentialsError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { plural } from '../../core/text.js';
import type { Context } from '../../context/context.js';
import { DEFAULT_LISTEN_PORT, startListener, type ListenerOptions, type Sink } from '../../webhook/listen.js';
import { NO_KEY_HINT, parseForwardUrl, queueRoot, signingKey } from './common.js';
import { refuseOwnFile } from '../../config/own-files.js';
import { StoreSink } from '../../mirror/webhook-sink.js';
import { keepHeapSmall } from '../../core/heap.js';
import { examples, nonNegativeInt, Option, prints, running, type Declare } from '../define.js';
import { dbOption } from '../mirror/args.js';

export interface WebhookListenOptions {
  port?: number | string | undefined;
  host?: string | undefined;
  path?: string | undefined;
  forwardTo?: string | undefined;
  save?: string | undefined;
  json?: boolean | undefined;
  /** Each accepted body, whole, as one line of JSON on stdout; the event lines go to stderr. */
  print?: boolean | undefined;
  /** Answer 200 to every notification, reporting whether its signature held instead of refusing it. */
  skipVerify?: boolean | undefined;
  /** Keep each verified notification in the account's mirror before answering 200. */
  store?: boolean | undefined;
  /** The mirror --store writes to (default as every mirror command: TRK_DB, the db setting, the profile's file). */
  db?: string | undefined;
  /** Run `trk notify`'s rules as notifications arrive (each stored first). */
  notify?: boolean | undefined;
}

/** --store and what goes with it, checked before anything is opened or listens. */
function checkStore(opts: WebhookListenOptions): void {
  if (opts.notify && !opts.store) {
    throw new UsageError('--notify runs the rules over what --store keeps', 'add --store');
  }
  if (opts.db !== undefined && !opts.store) {
    throw new UsageError('--db names the mirror --store writes to', 'add --store, or leave out --db');
  }
  if (opts.store && opts.skipVerify) {
    throw new UsageError(
      '--store keeps verified notifications only',
      'leave out --skip-verify to store them (or --store to accept every one)',
    );
  }
}

/** The mirror's sink of --store: the mirror opened (made if new) and claimed for this account. */
async function storeSink(
  opts: WebhookListenOptions,
  ctx: Context,
): Promise<{ sink: Sink; location: string; sinks: Sink[] }> {
  const { claimMirror, mirrorAccount, openMirror } = await import('../../mirror/open.js');
  // Each commit on disk before it returns: the service is told 200 once the notification is kept.
  const store = await openMirror(ctx, { db: opts.db, durable: true });
  try {
    await claimMirror(store, mirrorAccount(await ctx.settings()));
  } catch (err) {
    await store.close();
    throw err;
  }
  const sink = new StoreSink(store);
  if (!opts.notify) return { sink, location: store.location, sinks: [sink] };
  try {
    const { openNotifySink } = await import('../../mirror/notify/sink.js');
    // Closed before the store's sink, which closes the mirror: a run under way finishes first.
    return { sink, location: store.location, sinks: [await openNotifySink(ctx, store), sink] };
  } catch (err) {
    await store.close();
    throw err;
  }
}

function parsePort(v: number | string | undefined, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const n = typeof v === 'number' ? v : /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new UsageError(`invalid port "${v}"`, 'give a number from 0 (any free port) to 65535');
  return n;
}

/** What the flags ask of the listener, checked before anything listens. */
async function listenerOptions(opts: WebhookListenOptions, ctx: Context): Promise<ListenerOptions> {
  const forwardTo = opts.forwardTo === undefined ? undefined : parseForwardUrl(opts.forwardTo);
  checkStore(opts);
  if (opts.path !== undefined && !/^\/?[\x21-\x7e]*$/.test(opts.path)) {
    throw new UsageError(`invalid --path "${opts.path}"`, 'give a URL path such as /hook');
  }
  const port = parsePort(opts.port, DEFAULT_LISTEN_PORT);
  const key = await signingKey(await ctx.settings());
  if (!key && !opts.skipVerify) throw new CredentialsError('no API key configured', `${NO_KEY_HINT}; or --skip-verify`);
  // Notifications are never saved among trk's own files.
  if (opts.save !== undefined) refuseOwnFile(opts.save, ctx.env, '--save');
  const { carrierNames } = await import('../../carriers/lookup.js');
  // JSON output of a stream of events is one object a line, whether --json or -o ndjson asked for it. With --print
  // stdout carries the bodies (in JSON whatever the format) and the event lines, on stderr, are for people.
  const json = !opts.print && (opts.json === true || ctx.global.output === 'json' || ctx.global.output === 'ndjson');
  return {
    io: ctx.io,
    key,
    port,
    now: () => ctx.now(),
    carrierName: await carrierNames(ctx),
    json,
    print: opts.print === true,
    verify: !opts.skipVerify,
    ...(opts.host === undefined ? {} : { host: opts.host }),
    ...(opts.path === undefined ? {} : { path: opts.path }),
    ...(forwardTo === undefined ? {} : { forwardTo, queueRoot: queueRoot(stateDir(ctx.env)) }),
    ...(opts.save === undefined ? {} : { saveDir: opts.save }),
  };
}

/** What the listener does, in one line after the URL. */
function doingLine(opts: WebhookListenOptions, forwardTo: string | undefined, mirror: string | undefined): string {
  return [
    opts.skipVerify ? 'accepting every notification (--skip-verify)' : 'verifying signatures (v1, v2, v2.1)',
    mirror ? `storing them in the mirror ${mirror}` : '',
    forwardTo ? `forwarding to ${forwardTo}` : '',
    opts.save ? `saving bodies and headers in ${opts.save}` : '',
    opts.print ? 'bodies on stdout, one a line' : '',
    'Ctrl-C to stop',
  ]
    .filter(Boolean)
    .join('; ');
}

/** Forwards that earlier runs kept and no one replayed: named at the start, since the app may want them. */
async function tellLeftOver(root: string, forwardTo: string, ctx: Context): Promise<void> {
  const { keptFolders } = await import('../../webhook/replay.js');
  const folders = await keptFolders(root);
  for (const { dir, count } of folders.slice(0, 3)) {
    const replay = `trk webhook replay ${dir} --forward-to ${forwardTo}`;
    ctx.io.err(`${plural(count, 'notification')} not forwarded by an earlier run: ${replay}`);
  }
  if (folders.length > 3) ctx.io.err(`and ${plural(folders.length - 3, 'more folder')} of them in ${root}`);
}

/** Runs until Ctrl-C (ctx.signal), then stops cleanly: exit 0. */
export async function runWebhookListen(opts: WebhookListenOptions, ctx: Context): Promise<number> {
  // A run of hours whose every notification dies young (src/core/heap.ts).
  keepHeapSmall();
  const settings = await listenerOptions(opts, ctx);
  const store = opts.store ? await storeSink(opts, ctx) : undefined;
  let listener: Awaited<ReturnType<typeof startListener>>;
  try {
    listener = await startListener({ ...settings, ...(store ? { sinks: store.sinks } : {}) });
  } catch (err) {
    await store?.sink.close?.();
    throw err;
  }
  // The URL is what the user came for, so it is shown even with --quiet.
  ctx.io.err(`Listening on ${listener.url}`);
  ctx.info(doingLine(opts, settings.forwardTo, store?.location));
  if (settings.forwardTo !== undefined) await tellLeftOver(settings.queueRoot!, settings.forwardTo, ctx);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await listener.close();
  const summary = listener.summary();
  ctx.info(summary.head);
  // What needs doing (forwards that failed) is shown even with --quiet.
  for (const note of summary.notes) ctx.io.err(note);
  return EXIT.ok;
}

// One line per notification: for people (table) or one JSON object a line (json, ndjson); no CSV.
export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, ['table', 'json', 'ndjson'])
    .description(
      'receive notifications, verify their signatures and print them (optionally save, forward and store them)',
    )
    .addOption(new Option('--port <port>', 'port to listen on').argParser(nonNegativeInt('a port')))
    .option('--host <address>', 'address to listen on')
    .option('--path <path>', 'URL path to accept notifications on')
    .option('--forward-to <url>', 'forward each verified notification to this URL (again, while the app fails)')
    .option(
      '--save <dir>',
      'save each notification in this folder: the body as received (.json) and its headers (.headers)',
    )
    .option('--print', 'print each body whole on stdout, one JSON a line (for jq); the event lines go to stderr')
    .option(
      '--store',
      'keep each verified notification in the account\'s mirror (see "trk sync"), answering 200 once it is written',
    )
    .addOption(dbOption())
    .option('--skip-verify', 'accept every notification, reporting whether its signature held')
    .option('--notify', 'run the rules of "trk notify" as notifications arrive, each stored first (needs --store)')
    .addHelpText(
      'after',
      examples(
        'trk webhook listen --port 4242 --forward-to http://localhost:3000/hook --save ./hooks',
        "trk webhook listen --print | jq -c '{number: .data.number, status: .data.track_info.latest_status.status}'",
        'trk webhook listen --host 0.0.0.0 --port 4242 --store --db postgres://trk@db.internal/trk',
      ),
    )
    .action((o) =>
      running(invoke, (ctx) =>
        runWebhookListen(
          {
            port: o.port,
            host: o.host,
            path: o.path,
            forwardTo: o.forwardTo,
            save: o.save,
            print: o.print === true,
            store: o.store === true,
            db: o.db,
            skipVerify: o.skipVerify === true,
            notify: o.notify === true,
          },
          ctx,
        ),
      ),
    );

// trk webhook verify | listen: check notifications the service sends to the account's webhook URL.

import { readFile } from 'node:fs/promises';
import type { Settings } from '../../config/settings.js';
import type { Context } from '../../context.js';
import { CredentialsError, LOGIN_HINT, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { readBytes } from '../../stdin.js';

export interface WebhookVerifyOptions {
  /** File holding the body exactly as received; `-` reads stdin. */
  body: string;
  /** The `sign` header (v2, v2.1). For v1 the sign is in the body; given, it overrides that one. */
  sign?: string | undefined;
  /** Apply the v1 rule. Without it, a body carrying `sign` and no --sign is taken as v1 too. */
  v1?: boolean | undefined;
}

export interface WebhookListenOptions {
  port?: number | string | undefined;
  host?: string | undefined;
  path?: string | undefined;
  forwardTo?: string | undefined;
  save?: string | undefined;
  json?: boolean | undefined;
  /** Answer 200 to every notification, reporting whether its signature held instead of refusing it. */
  skipVerify?: boolean | undefined;
}

const NO_KEY_HINT = `signatures are made with the account's API key: ${LOGIN_HINT}`;

/**
 * The key notifications are signed with: the profile's, or the emulator's fixed key with --sandbox (the one the
 * embedded emulator signs its deliveries with).
 */
async function signingKey(settings: Settings): Promise<string | undefined> {
  if (settings.sandbox) {
    const { SANDBOX_KEY } = await import('../../sandbox/index.js');
    return SANDBOX_KEY;
  }
  return settings.apiKey;
}

async function readBody(file: string, ctx: Context): Promise<Buffer> {
  if (file === '-') return readBytes(ctx.io.stdin);
  try {
    return await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
    throw new UsageError(`cannot read ${file}: ${why}`, 'give the file holding the body as received, or - for stdin');
  }
}

/** Exit 0 when the notification is genuine, 1 when not. */
export async function runWebhookVerify(opts: WebhookVerifyOptions, ctx: Context): Promise<number> {
  if (!opts.body) throw new UsageError('--body is required', 'give the file holding the body as received, or - for stdin');
  const raw = await readBody(opts.body, ctx);
  const key = await signingKey(await ctx.settings());
  if (!key) throw new CredentialsError('no API key configured', NO_KEY_HINT);
  const { detectVersion, verifyV1, verifyV2 } = await import('../../webhook/verify.js');
  const sign = opts.sign?.trim();
  let rule: 'v1' | 'v2';
  if (opts.v1) rule = 'v1';
  else if (sign) rule = 'v2';
  else if (detectVersion(raw) === 'v1') rule = 'v1';
  else throw new UsageError('--sign is required', 'pass the value of the notification\'s sign header (v1 bodies carry it themselves: --v1)');

  const genuine = rule === 'v2' ? verifyV2(raw, sign!, key) : verifyV1(raw, key, sign || undefined);
  if (genuine) {
    ctx.info(`genuine: the ${rule === 'v2' ? 'sign header' : 'v1 sign'} matches the body and the key`);
    return EXIT.ok;
  }
  ctx.io.err(`not genuine: the ${rule === 'v2' ? 'sign header' : 'v1 sign'} does not match the body and the key`);
  if (rule === 'v1' && detectVersion(raw) !== 'v1' && !sign) ctx.io.err('the body carries no sign field');
  // The usual cause of a false negative: an editor or `echo` added a line ending to the saved body.
  if (rule === 'v2' && /\r?\n$/.test(raw.toString('latin1')) && verifyV2(raw.toString('utf8').replace(/\r?\n$/, ''), sign!, key)) {
    ctx.io.err('it would match without the line ending at the end of the file: save the body exactly as received');
  }
  return EXIT.failure;
}

function parsePort(v: number | string | undefined, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const n = typeof v === 'number' ? v : /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new UsageError(`invalid port "${v}"`, 'give a number from 0 (any free port) to 65535');
  return n;
}

function parseForwardUrl(v: string): string {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new UsageError(`invalid --forward-to URL "${v}"`, 'give an http:// or https:// URL, e.g. http://127.0.0.1:3000/webhook');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`invalid --forward-to URL "${v}"`, 'only http:// and https:// URLs can be forwarded to');
  }
  return url.href;
}

/** Runs until Ctrl-C (ctx.signal), then stops cleanly: exit 0. */
export async function runWebhookListen(opts: WebhookListenOptions, ctx: Context): Promise<number> {
  const { DEFAULT_LISTEN_PORT, startListener } = await import('../../webhook/listen.js');
  const port = parsePort(opts.port, DEFAULT_LISTEN_PORT);
  const forwardTo = opts.forwardTo === undefined ? undefined : parseForwardUrl(opts.forwardTo);
  if (opts.path !== undefined && !/^\/?[\x21-\x7e]*$/.test(opts.path)) {
    throw new UsageError(`invalid --path "${opts.path}"`, 'give a URL path such as /hook');
  }
  const key = await signingKey(await ctx.settings());
  if (!key && !opts.skipVerify) throw new CredentialsError('no API key configured', `${NO_KEY_HINT}; or --skip-verify`);
  const { carrierNames } = await import('../../carriers/lookup.js');
  const json = opts.json === true || ctx.global.output === 'json' || ctx.global.output === 'ndjson';

  const listener = await startListener({
    io: ctx.io,
    key,
    port,
    now: () => ctx.now(),
    carrierName: await carrierNames(ctx),
    json,
    verify: !opts.skipVerify,
    ...(opts.host === undefined ? {} : { host: opts.host }),
    ...(opts.path === undefined ? {} : { path: opts.path }),
    ...(forwardTo === undefined ? {} : { forwardTo }),
    ...(opts.save === undefined ? {} : { saveDir: opts.save }),
  });
  // The URL is what the user came for, so it is shown even with --quiet.
  ctx.io.err(`Listening on ${listener.url}`);
  ctx.info(
    [
      opts.skipVerify ? 'accepting every notification (--skip-verify)' : 'verifying signatures (v1, v2, v2.1)',
      forwardTo ? `forwarding to ${forwardTo}` : '',
      opts.save ? `saving bodies in ${opts.save}` : '',
      'Ctrl-C to stop',
    ]
      .filter(Boolean)
      .join('; '),
  );
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await listener.close();
  const { handled, refused } = listener.counts;
  ctx.info(`stopped: ${handled} notification${handled === 1 ? '' : 's'}, ${refused} refused`);
  return EXIT.ok;
}

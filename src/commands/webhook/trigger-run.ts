// trk webhook trigger STATUS --number N: a notification of that status for a number, made up and signed as the
// service would send it (webhook/trigger-body.ts), sent to a listener (`trk webhook listen`'s address unless --to
// says otherwise), so that a shop can rehearse its set-up end to end without waiting for a parcel. The parcel's tag
// and parameter come from the mirror when it knows the number; --dry-run prints the body instead of sending it.

import { requestTimeoutMs } from '../../config/timeout.js';
import type { Context } from '../../context/context.js';
import { CredentialsError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import type { Store } from '../../store/types.js';
import {
  PACKAGE_STATUSES,
  WEBHOOK_EVENTS,
  type ApiVersion,
  type PackageStatus,
  type WebhookEvent,
} from '@trk/service/vocabulary.js';
import { forwarded, Forwarder, type ForwardResult } from '../../webhook/forward.js';
import { DEFAULT_LISTEN_URL } from '../../webhook/address.js';
import {
  defaultSubStatus,
  parseTriggerStatus,
  signedTrigger,
  subStatusesOf,
  type TriggerProvider,
} from '../../webhook/trigger-body.js';
import { resolveCarrierFlags } from '../common/carrier-args.js';
import { NO_KEY_HINT, parseForwardUrl, signingKey } from './common.js';

export interface WebhookTriggerOptions {
  status?: string | undefined;
  number?: string | undefined;
  carrier?: string | undefined;
  subStatus?: string | undefined;
  event?: string | undefined;
  to?: string | undefined;
  db?: string | undefined;
  dryRun?: boolean | undefined;
}

/** What the listener's refusals mean, by status (pipeline.ts answers them). */
const REFUSALS: Readonly<Record<number, string>> = {
  401: "it did not take the signature: it checks with another key than this profile's API key",
  400: 'it found the body not of the documented shape',
  404: "nothing takes notifications at that path: give the listener's path (default /hook) in --to",
  503: 'it could not keep the notification (its mirror or queue failed, or it was busy): see its output',
};

interface Chosen {
  event: WebhookEvent;
  status: PackageStatus;
  subStatus: string;
}

/** STATUS, --sub-status and --event, checked in `version`: a usage error (exit 2) names what can be given. */
export function chooseStatus(opts: WebhookTriggerOptions, version: ApiVersion): Chosen {
  const event = WEBHOOK_EVENTS.find((e) => e === opts.event?.toUpperCase());
  if (opts.event !== undefined && event === undefined) {
    throw new UsageError(`unknown --event "${opts.event}"`, `give one of ${WEBHOOK_EVENTS.join(', ')}`);
  }
  const statuses = PACKAGE_STATUSES.join(', ');
  if (event === 'TRACKING_STOPPED') {
    if (opts.status === undefined && opts.subStatus === undefined) return { event, status: 'InTransit', subStatus: '' };
    throw new UsageError('a TRACKING_STOPPED notification carries no status', 'leave out the status and --sub-status');
  }
  if (opts.status === undefined) {
    throw new UsageError('no status to trigger', `give one of ${statuses} or --event TRACKING_STOPPED`);
  }
  const parsed = parseTriggerStatus(opts.status);
  if (parsed === undefined) {
    throw new UsageError(`unknown status "${opts.status}"`, `give one of ${statuses}, or a sub-status`);
  }
  const subs = subStatusesOf(parsed.status, version);
  const subStatus = opts.subStatus ?? parsed.subStatus ?? defaultSubStatus(parsed.status);
  if (opts.subStatus !== undefined && parsed.subStatus !== undefined && opts.subStatus !== parsed.subStatus) {
    throw new UsageError(`${opts.status} is a sub-status already`, 'leave out --sub-status, or give a main status');
  }
  if (!subs.includes(subStatus)) {
    const customs = version !== 'v2.1' && subStatusesOf(parsed.status, 'v2.1').includes(subStatus);
    throw new UsageError(
      `${subStatus} is not a sub-status of ${parsed.status} in ${version}`,
      customs ? 'customs sub-statuses come with --api-version v2.1' : `give one of ${subs.join(', ')}`,
    );
  }
  return { event: event ?? 'TRACKING_UPDATED', status: parsed.status, subStatus };
}

/** What the mirror knows of a number: its carriers' tags and parameters. */
interface Known {
  carrier: number;
  tag: string | null;
  param: string | null;
}

const textOf = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

async function knownRecords(store: Store, number: string): Promise<Known[]> {
  const found: Known[] = [];
  // One number matches any part of numbers: only the record of this number is taken.
  for await (const batch of store.records({ numbers: [number] })) {
    for (const r of batch) {
      const o = JSON.parse(r.raw) as Record<string, unknown>;
      if (o.number !== number) continue;
      found.push({ carrier: Number(o.carrier ?? o.w1 ?? 0), tag: textOf(o.tag), param: textOf(o.param) });
    }
  }
  return found;
}

/** The number's records in the account's mirror; none without a mirror, or with another account's (said why). */
async function fromMirror(ctx: Context, opts: WebhookTriggerOptions, number: string): Promise<Known[]> {
  const { mirrorLocation, mirrorMayExist, openMirrorToRead } = await import('../../mirror/open.js');
  if (!mirrorMayExist(await mirrorLocation(ctx, { db: opts.db }))) return [];
  let store: Store;
  try {
    store = await openMirrorToRead(ctx, { db: opts.db });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    ctx.info(`tag and parameter not taken from the mirror: ${err.message}`);
    return [];
  }
  try {
    return await knownRecords(store, number);
  } finally {
    await store.close();
  }
}

/** The parcel's carrier (--carrier, else the mirror's) and what the mirror knows of it. */
async function parcel(ctx: Context, opts: WebhookTriggerOptions, number: string): Promise<Known & { known: boolean }> {
  const { carrier } = await resolveCarrierFlags(
    ctx,
    { carrier: ['--carrier', opts.carrier] },
    {
      refuseNone: 'a notification names its carrier: give its code or name',
    },
  );
  const known = await fromMirror(ctx, opts, number);
  const match = carrier === undefined ? known : known.filter((k) => k.carrier === carrier);
  if (match.length === 1) return { ...match[0]!, known: true };
  if (carrier !== undefined) return { carrier, tag: null, param: null, known: false };
  if (known.length > 1) {
    const codes = known.map((k) => k.carrier).join(', ');
    throw new UsageError(`${number} is in the mirror with ${known.length} carriers (${codes})`, 'give --carrier');
  }
  throw new UsageError(
    `no carrier for ${number}: the mirror does not know it`,
    'give --carrier (a code or a name, e.g. --carrier "China Post")',
  );
}

async function provider(ctx: Context, carrier: number): Promise<TriggerProvider> {
  const { cachedCarriers } = await import('../../carriers/lookup.js');
  const found = (await cachedCarriers(ctx))?.find((c) => c.key === carrier);
  return { name: found?.name ?? null, homepage: found?.url ?? null, country: found?.countryIso ?? null };
}

/** The listener's answer in one line, and why it refused, when it did. */
function answerLine(target: string, result: ForwardResult): string {
  if (result.status === undefined) {
    const refused = /ECONNREFUSED/.test(result.error ?? '');
    return refused
      ? `no listener at ${target} (connection refused): start one with "trk webhook listen", or give its URL in --to`
      : `could not reach ${target}: ${result.error}`;
  }
  const why = REFUSALS[result.status];
  return `the listener at ${target} answered ${result.status}${why ? `: ${why}` : ''}`;
}

/** Exit 0 when the listener took the notification (2xx), 1 when it refused it or was not there. */
export async function runWebhookTrigger(opts: WebhookTriggerOptions, ctx: Context): Promise<number> {
  const number = opts.number?.trim();
  if (!number) throw new UsageError('--number is required', 'give the tracking number to notify about');
  const settings = await ctx.settings();
  const chosen = chooseStatus(opts, settings.apiVersion);
  const target = parseForwardUrl(opts.to ?? DEFAULT_LISTEN_URL, '--to');
  const key = await signingKey(settings);
  if (!key) throw new CredentialsError('no API key configured', NO_KEY_HINT);
  const p = await parcel(ctx, opts, number);
  const request = { ...chosen, ...p, number, version: settings.apiVersion, now: ctx.now() };
  const { body, headers } = signedTrigger({ ...request, provider: await provider(ctx, p.carrier) }, key);
  const what = `${chosen.event} ${chosen.event === 'TRACKING_STOPPED' ? '' : `${chosen.subStatus} `}for ${number}`;
  if (opts.dryRun) {
    ctx.io.out(`${body}\n`);
    if (headers.sign !== undefined) ctx.info(`sign: ${headers.sign}`);
    ctx.info(`${what} (${settings.apiVersion}), not sent (--dry-run)`);
    return EXIT.ok;
  }
  ctx.debug(`POST ${target}`);
  for (const [name, value] of Object.entries(headers)) ctx.debug(`${name}: ${value}`);
  ctx.debug(body);
  if (p.known) ctx.info(`${number} is in the mirror: a listener that stores keeps this made-up status for it`);
  const forwarder = new Forwarder(target, requestTimeoutMs(ctx.global.timeout, ctx.env));
  const stop = () => forwarder.stop();
  ctx.signal.addEventListener('abort', stop, { once: true });
  let result: ForwardResult;
  try {
    result = await forwarder.send(Buffer.from(body), Object.entries(headers).flat());
  } finally {
    ctx.signal.removeEventListener('abort', stop);
    await forwarder.close();
  }
  if (forwarded(result)) {
    ctx.info(`sent ${what} (${settings.apiVersion}) to ${target}: answered ${result.status}`);
    return EXIT.ok;
  }
  ctx.io.err(`not taken: ${answerLine(target, result)}`);
  return EXIT.failure;
}

// trk __complete KIND (hidden): the values the completion scripts ask for while a shell waits, profiles and
// carriers. It needs no command tree, so that a Tab loads this file alone.

import { parseCarriers } from '../../carriers/parse.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { prints, running, type Declare } from '../define.js';
import type { Listing } from '../listing.js';

export const COMPLETE_KINDS = ['profiles', 'carriers'] as const;

export interface CompleteValuesOptions {
  kind: string;
}

export async function runCompleteValues(opts: CompleteValuesOptions, ctx: Context): Promise<number> {
  if (opts.kind === 'profiles') {
    const { openProfileStore } = await import('../../config/profiles.js');
    const names = new Set(['sandbox', ...openProfileStore(ctx.env).list()]);
    ctx.io.out([...names].map((n) => `${n}\n`).join(''));
    return 0;
  }
  if (opts.kind === 'carriers') {
    ctx.io.out(await carrierValues(ctx));
    return 0;
  }
  throw new UsageError(`nothing to complete for "${opts.kind}"`, `use one of: ${COMPLETE_KINDS.join(', ')}`);
}

/**
 * Carrier names for a `--carrier <Tab>`, each with its code and country: from the cached list of the res URL in
 * use (the sandbox's under --sandbox), else the list shipped with trk. Never a download: a shell waits for this.
 */
async function carrierValues(ctx: Context): Promise<string> {
  const { cachedCarriers } = await import('../../carriers/lookup.js');
  let carriers = await cachedCarriers(ctx).catch(() => undefined);
  if (!carriers) {
    const { shippedList } = await import('../../carriers/shipped.js');
    carriers = parseCarriers(await shippedList('carriers'));
  }
  const seen = new Set<string>();
  let out = '';
  for (const c of carriers) {
    if (c.name === '' || seen.has(c.name)) continue;
    seen.add(c.name);
    out += `${c.name}\t${[c.key, c.countryIso].filter(Boolean).join(' ')}\n`;
  }
  return out;
}

export const listing = { name: '__complete', summary: '', section: 'more', hidden: true } satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .argument('<kind>')
    .action((kind) => running(invoke, (ctx) => runCompleteValues({ kind }, ctx)));

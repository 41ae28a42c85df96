// trk quota: the account's quota record. JSON prints the object as the service sent it.

import { wireBody } from '../../api/request-body.js';
import type { QuotaRecord } from '@trk/service/types.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { QUOTA_FIELDS } from '../../output/columns.js';
import { printObject } from '../../output/render.js';
import { outputOf } from '../common/output.js';
import { QUOTA_FIELD_NAMES } from '../../output/column-names.js';
import { examples, running, withColumns, type Declare } from '../define.js';
import type { Listing } from '../listing.js';

export type QuotaOptions = Record<string, never>;

export async function runQuota(_opts: QuotaOptions, ctx: Context): Promise<number> {
  // Refused before the request: the quota is one object, with nothing that names it.
  if (ctx.global.output === 'ids') throw new UsageError('quota has no ids to print', 'use --json, --csv or --columns');
  const { apiVersion } = await ctx.settings();
  const body = wireBody('getquota', apiVersion, undefined);
  const api = await ctx.api();
  const env = await api.call('getquota', body, { signal: ctx.signal });
  const quota = (env.data ?? {}) as unknown as QuotaRecord;
  await printObject(ctx.io, quota, QUOTA_FIELDS, outputOf(ctx));
  return 0;
}

export const listing = {
  name: 'quota',
  summary: 'show the quota of the account',
  section: 'account',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withColumns(cmd, QUOTA_FIELD_NAMES)
    .addHelpText('after', examples('trk quota', 'trk quota --json', 'trk quota --columns quota_remain | cut -f2'))
    .action((o) => running(invoke, (ctx) => runQuota({}, ctx), o));

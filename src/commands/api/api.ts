// trk api: the escape hatch. Sends a body as given to any operation and prints the service's envelope as JSON
// (CSV and tables are refused: the envelope has no columns), for what the other commands do not cover. Errors of the
// request as a whole map to exit codes as anywhere else;
// rejected items give exit 3.

import { unsupported } from '../../api/request-body.js';
import { API_VERSIONS } from '@trk/service/vocabulary.js';
import { OPERATIONS, operationClass, operationPath, type Operation } from '@trk/service/operations/index.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { readAll } from '../../io/stdin.js';
import { examples, prints, running, type Declare } from '../define.js';
import type { Listing } from '../listing.js';

export interface ApiOptions {
  operation: string;
  /** JSON text, `-` for stdin; default `[]` (`{}` for gettracklist). */
  data?: string | undefined;
}

/** An operation by its v2 name or any version's path spelling, case-insensitively (`deleteTrack`, `Retrack`). */
export function findOperation(name: string): Operation | undefined {
  const wanted = name.trim().replace(/^\/+/, '').toLowerCase();
  return OPERATIONS.find(
    (op) => op.toLowerCase() === wanted || API_VERSIONS.some((v) => operationPath(v, op)?.toLowerCase() === wanted),
  );
}

export function parseData(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `${source} is not valid JSON: ${(err as Error).message}`,
      'pass a JSON array or object, e.g. --data \'[{"number":"RR123456789CN"}]\'',
    );
  }
}

export async function runApi(opts: ApiOptions, ctx: Context): Promise<number> {
  const op = findOperation(opts.operation);
  if (!op) {
    throw new UsageError(`unknown operation "${opts.operation}"`, `use one of ${OPERATIONS.join(', ')}`);
  }
  let body: unknown;
  if (opts.data === undefined) body = op === 'gettracklist' ? {} : [];
  else if (opts.data === '-') body = parseData(await readAll(ctx.io.stdin), 'stdin');
  else body = parseData(opts.data, '--data');
  const { apiVersion } = await ctx.settings();
  unsupported(apiVersion, op);
  const api = await ctx.api();
  // Only what changes nothing may be cut short by Ctrl-C; a sent change is left to finish.
  const env = await api.call(op, body, operationClass(op) === 'read' ? { signal: ctx.signal } : {});
  // -o ndjson: the envelope on one line; else pretty-printed.
  ctx.io.out(`${ctx.global.output === 'ndjson' ? JSON.stringify(env) : JSON.stringify(env, null, 2)}\n`);
  const rejected = env.data?.rejected;
  return Array.isArray(rejected) && rejected.length > 0 ? EXIT.partial : EXIT.ok;
}

export const listing = {
  name: 'api',
  summary: "send a raw request and print the service's answer as JSON",
  section: 'more',
} satisfies Listing;

// The service's answer is JSON: pretty (the default, --json) or on one line (-o ndjson).
export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, ['json', 'ndjson'])
    .argument('<operation>', 'operation name, e.g. gettracklist, register, getquota')
    .option(
      '-d, --data <json>',
      'request body as JSON, or - to read it from stdin (default: [] or {} for gettracklist)',
    )
    .addHelpText(
      'after',
      examples('trk api getquota', 'trk api gettracklist --data \'{"package_status":"Delivered","page_no":2}\''),
    )
    .action((operation, o) => running(invoke, (ctx) => runApi({ operation, data: o.data }, ctx)));

// Declaration of `trk api`: the escape hatch for any operation.

import { examples, lazy, prints, type Declare } from '../define.js';

// The service's answer is JSON: pretty (the default, --json) or on one line (-o ndjson).
const api: Declare = (cmd, invoke) =>
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
    .action((operation, o) =>
      lazy(
        invoke,
        () => import('./api.js'),
        (m, ctx) => m.runApi({ operation, data: o.data }, ctx),
      ),
    );

export const declarations: Readonly<Record<string, Declare>> = { api };

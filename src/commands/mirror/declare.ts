// Declarations of the mirror's commands: `trk sync` keeps a copy of the account in a local store, `trk changes`
// prints the status changes it learnt, `trk find` looks a customer's parcel up in it. `list --offline` and
// `info --offline` read it too (src/commands/list/offline.ts, src/commands/items/info-offline.ts).

import { examples, lazy, prints, type Declare } from '../define.js';
import { dbOption } from './args.js';


const sync: Declare = (cmd, invoke) =>
  prints(cmd, ['table', 'json'])
    .option('--full', 'read every record (what a first sync does) and take out of the mirror those the service no longer has')
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
A sync asks only for what changed since the last one (records tracked, registered, pushed or stopped since,
and the details of those whose status or tracking time moved); a first sync, and --full, read every record.
An interrupted sync loses nothing: the next one carries on where it stopped.
${examples('trk sync', 'trk sync --full --json', '0 * * * * trk sync -q   # in a crontab: hourly').slice(1)}`,
    )
    .action((o) => lazy(invoke, () => import('./sync.js'), (m, ctx) => m.runSync({ full: o.full, db: o.db }, ctx)));

export const declarations: Readonly<Record<string, Declare>> = { sync };

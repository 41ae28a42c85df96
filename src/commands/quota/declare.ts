// Declaration of `trk quota`.

import { examples, lazy, type Declare } from '../define.js';

const quota: Declare = (cmd, invoke) =>
  cmd
    .addHelpText('after', examples('trk quota', 'trk quota --json'))
    .action(() => lazy(invoke, () => import('./quota.js'), (m, ctx) => m.runQuota({}, ctx)));

export const declarations: Readonly<Record<string, Declare>> = { quota };

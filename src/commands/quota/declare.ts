// Declaration of `trk quota`.

import { QUOTA_FIELD_NAMES } from '../../output/column-names.js';
import { examples, lazy, withColumns, type Declare } from '../define.js';

const quota: Declare = (cmd, invoke) =>
  withColumns(cmd, QUOTA_FIELD_NAMES)
    .addHelpText('after', examples('trk quota', 'trk quota --json', 'trk quota --columns quota_remain | cut -f2'))
    .action((o) =>
      lazy(
        invoke,
        () => import('./quota.js'),
        (m, ctx) => m.runQuota({}, ctx),
        o,
      ),
    );

export const declarations: Readonly<Record<string, Declare>> = { quota };

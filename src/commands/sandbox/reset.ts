// trk sandbox reset: forget every number, the quota used and the clock of the emulator (the run in emulator.ts).

import { examples, lazy, prints, type Declare } from '../define.js';

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .description('forget every number, the quota used and the clock of the emulator')
    .option('--state <file>', 'state file (default <state dir>/sandbox.json)')
    .addHelpText('after', examples('trk sandbox reset', 'trk sandbox reset --state ./rehearsal.json'))
    .action((o) =>
      lazy(
        invoke,
        () => import('./emulator.js'),
        (m, ctx) => m.runSandboxReset(o.state === undefined ? {} : { state: o.state }, ctx),
      ),
    );

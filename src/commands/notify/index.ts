// `trk notify`: rules that tell the team, the customers and the chat when parcels change, from the mirror. One
// command a file (add, list, remove, test, run), each its declaration, flags and action; what they do is the
// mirror's work (src/mirror/notify/), loaded when one runs.

import { examples, type Declare } from '../define.js';
import { declareAdd } from './add.js';
import { declareList } from './list.js';
import { declareRemove } from './remove.js';
import { declareRun } from './run.js';
import { declareTest } from './test.js';

const notify: Declare = (cmd, invoke) => {
  cmd.addHelpText(
    'after',
    examples(
      'trk notify add nightly --when Exception,DeliveryFailure --to mailto:ops@example.com --digest',
      'trk notify run --dry-run',
      'trk notify list',
    ),
  );
  declareList(cmd, invoke);
  declareAdd(cmd, invoke);
  declareRemove(cmd, invoke);
  declareTest(cmd, invoke);
  declareRun(cmd, invoke);
};

export const declarations: Readonly<Record<string, Declare>> = { notify };

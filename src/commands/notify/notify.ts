// `trk notify`: rules that tell the team, the customers and the chat when parcels change, from the mirror. One
// command a file (add, list, remove, test, run), each its declaration, flags and action; what they do is the
// mirror's work (src/mirror/notify/), loaded when one runs.

import { examples, type Declare } from '../define.js';
import { declaration as addCommand } from './add.js';
import { declaration as listCommand } from './list.js';
import { declaration as removeCommand } from './remove.js';
import { declaration as runCommand } from './run.js';
import { declaration as testCommand } from './test.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'notify',
  summary: 'tell team, customers and chats when parcels change',
  section: 'mirror',
  group: true,
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) => {
  cmd.addHelpText(
    'after',
    examples(
      'trk notify add nightly --when Exception,DeliveryFailure --to mailto:ops@example.com --digest',
      'trk notify run --dry-run',
      'trk notify list',
    ),
  );
  listCommand(cmd.command('list', { isDefault: true }), invoke);
  addCommand(cmd.command('add'), invoke);
  removeCommand(cmd.command('remove'), invoke);
  testCommand(cmd.command('test'), invoke);
  runCommand(cmd.command('run'), invoke);
};

// trk sandbox: the service emulator as a foreground process (start), and forgetting what it holds (reset).

import { examples, type Declare } from '../define.js';
import { declaration as reset } from './reset.js';
import { declaration as start } from './start.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'sandbox',
  summary: 'run the service emulator locally',
  section: 'account',
  group: true,
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) => {
  cmd.addHelpText(
    'after',
    examples(
      'trk list --sandbox                          # any command, against an emulator kept in the state folder',
      'trk sandbox start --speed 3600 > sandbox.env &',
      'trk sandbox reset',
    ),
  );
  start(cmd.command('start'), invoke);
  reset(cmd.command('reset'), invoke);
};

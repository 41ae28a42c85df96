// trk config get | set | unset | list: the settings of a profile. The API key is only shown masked and is set
// with `trk auth login`, which verifies it first. A profile that is not saved is refused (a typo must not create
// one); `config set --create` makes it.

import { examples, type Declare } from '../define.js';
import { declaration as getCommand } from './get.js';
import { declaration as listCommand } from './list.js';
import { declaration as setCommand } from './set.js';
import { declaration as unsetCommand } from './unset.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'config',
  summary: 'read and change settings of the profile',
  section: 'account',
  group: true,
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) => {
  cmd.addHelpText(
    'after',
    examples(
      'trk config list',
      'trk config set output json',
      'trk config set api-version v2.1 --profile shop-eu',
      'trk config get base-url',
    ),
  );
  getCommand(cmd.command('get'), invoke);
  setCommand(cmd.command('set'), invoke);
  unsetCommand(cmd.command('unset'), invoke);
  listCommand(cmd.command('list'), invoke);
};

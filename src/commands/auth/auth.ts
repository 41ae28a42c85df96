// trk auth login | switch | list | status | logout: profiles the way `gh auth` and `kubectl config` keep them.
// The key is asked for with masked input on a terminal, or read from stdin with --with-key-stdin; never taken
// from a flag (flags end up in shell history and process lists). It is verified against the service before it
// is saved.
//
// Decision: nothing changes the active profile behind the user's back. Logging in to a named profile saves it and
// leaves the active one alone unless --activate is given, it is the first profile, or it is the profile already
// in use (none named); every command that could change which account cron jobs talk to says which profile is
// active afterwards.

import { examples, type Declare } from '../define.js';
import { declaration as list } from './list.js';
import { declaration as login } from './login.js';
import { declaration as logout } from './logout.js';
import { declaration as status } from './status.js';
import { declaration as switchTo } from './switch.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'auth',
  summary: 'log in to profiles, switch between them, list, check and remove them',
  section: 'account',
  group: true,
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) => {
  cmd.addHelpText(
    'after',
    examples(
      'trk auth login                                 # the active profile (the first one becomes active)',
      'trk auth login --profile shop-eu --with-key-stdin < key.txt',
      'trk auth list',
      'trk auth switch shop-eu',
      'trk auth status',
    ),
  );
  login(cmd.command('login'), invoke);
  switchTo(cmd.command('switch'), invoke);
  list(cmd.command('list'), invoke);
  status(cmd.command('status'), invoke);
  logout(cmd.command('logout'), invoke);
};

// Declaration of `trk auth`: log in to profiles, choose the active one, list, check and remove them.

import { examples, lazy, prints, type Declare } from '../define.js';

const auth: Declare = (cmd, invoke) => {
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
  prints(cmd.command('login'), [])
    .description('verify an API key and save it with the base URL and API version in a profile')
    .option('--with-key-stdin', 'read the API key from stdin instead of asking for it')
    .option(
      '--activate',
      'make the profile the active one (the first profile with a key always is; others stay as they are)',
    )
    .addHelpText(
      'after',
      examples(
        'trk auth login',
        'trk auth login --with-key-stdin < key.txt',
        'trk auth login --profile staging --base-url https://staging.example.com --activate',
      ),
    )
    .action((o) =>
      lazy(
        invoke,
        () => import('./auth.js'),
        (m, ctx) => m.runAuthLogin({ withKeyStdin: o.withKeyStdin === true, activate: o.activate === true }, ctx),
      ),
    );
  prints(cmd.command('switch'), [])
    .description('make a saved profile the active one (asks which on a terminal when no name is given)')
    .argument('[profile]', 'the profile ("trk auth list" shows them)')
    .addHelpText('after', examples('trk auth switch shop-eu', 'trk auth switch'))
    .action((name) =>
      lazy(
        invoke,
        () => import('./auth.js'),
        (m, ctx) => m.runAuthSwitch({ name }, ctx),
      ),
    );
  cmd
    .command('list')
    .description('list the saved profiles: name, base URL, API version, masked key; the active one marked')
    .addHelpText('after', examples('trk auth list', 'trk auth list --json'))
    .action(() =>
      lazy(
        invoke,
        () => import('./auth.js'),
        (m, ctx) => m.runAuthList({}, ctx),
      ),
    );
  cmd
    .command('status')
    .description('check the key with one free request (getquota) and show each setting and where it came from')
    .option('--offline', 'show the settings without asking the service (also those of a profile without a key)')
    .addHelpText(
      'after',
      examples('trk auth status', 'trk auth status --profile shop-eu --json', 'trk auth status --offline'),
    )
    .action((o) =>
      lazy(
        invoke,
        () => import('./auth.js'),
        (m, ctx) => m.runAuthStatus({ offline: o.offline === true }, ctx),
      ),
    );
  prints(cmd.command('logout'), [])
    .description(
      'remove a profile (--profile, else the active one) with its key and settings; asks first on a terminal ' +
        '(--yes does not)',
    )
    .addHelpText(
      'after',
      examples('trk auth logout --profile staging', 'trk auth logout', 'trk auth logout --profile ci --yes'),
    )
    .action(() =>
      lazy(
        invoke,
        () => import('./auth.js'),
        (m, ctx) => m.runAuthLogout({}, ctx),
      ),
    );
};

export const declarations: Readonly<Record<string, Declare>> = { auth };

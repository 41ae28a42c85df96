// Declaration of `trk auth`: log in, show or remove the stored API key.

import { examples, lazy, type Declare } from '../define.js';

const auth: Declare = (cmd, invoke) => {
  cmd
    .command('login')
    .description('verify an API key and save it with the base URL and API version in the profile')
    .option('--with-key-stdin', 'read the API key from stdin instead of asking for it')
    .addHelpText(
      'after',
      examples('trk auth login', 'trk auth login --with-key-stdin < key.txt', 'trk auth login --profile staging --base-url https://staging.example.com'),
    )
    .action((o) => lazy(invoke, () => import('./auth.js'), (m, ctx) => m.runAuthLogin({ withKeyStdin: o.withKeyStdin === true }, ctx)));
  cmd
    .command('status')
    .description('show the profile, each setting and where it came from (the key masked)')
    .action(() => lazy(invoke, () => import('./auth.js'), (m, ctx) => m.runAuthStatus({}, ctx)));
  cmd
    .command('logout')
    .description('remove the API key from the profile')
    .action(() => lazy(invoke, () => import('./auth.js'), (m, ctx) => m.runAuthLogout({}, ctx)));
};

export const declarations: Readonly<Record<string, Declare>> = { auth };

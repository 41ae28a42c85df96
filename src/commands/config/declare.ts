// Declaration of `trk config`: read and change settings of a profile.

import { examples, lazy, type Declare } from '../define.js';

const config: Declare = (cmd, invoke) => {
  cmd
    .command('get')
    .description('print one setting')
    .argument('<key>', 'setting name (see "trk config list")')
    .action((key) => lazy(invoke, () => import('./config.js'), (m, ctx) => m.runConfigGet({ key }, ctx)));
  cmd
    .command('set')
    .description('change one setting of the profile (the API key is set with "trk auth login")')
    .argument('<key>', 'setting name')
    .argument('<value>', 'new value')
    .addHelpText('after', examples('trk config set api-version v2.1', 'trk config set base-url https://staging.example.com --profile staging'))
    .action((key, value) => lazy(invoke, () => import('./config.js'), (m, ctx) => m.runConfigSet({ key, value }, ctx)));
  cmd
    .command('list')
    .description('print every setting with its value and where it came from')
    .action(() => lazy(invoke, () => import('./config.js'), (m, ctx) => m.runConfigList({}, ctx)));
};

export const declarations: Readonly<Record<string, Declare>> = { config };

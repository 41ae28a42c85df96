// Declaration of `trk config`: read and change settings of a profile.

import { examples, lazy, prints, type Declare } from '../define.js';

const config: Declare = (cmd, invoke) => {
  cmd.addHelpText(
    'after',
    examples(
      'trk config list',
      'trk config set output json',
      'trk config set api-version v2.1 --profile shop-eu',
      'trk config get base-url',
    ),
  );
  cmd
    .command('get')
    .description('print one setting')
    .argument('<key>', 'setting name (see "trk config list")')
    .addHelpText('after', examples('trk config get base-url', 'trk config get api-version --profile shop-eu --json'))
    .action((key) =>
      lazy(
        invoke,
        () => import('./config.js'),
        (m, ctx) => m.runConfigGet({ key }, ctx),
      ),
    );
  prints(cmd.command('set'), [])
    .description('change one setting of the profile (the API key is set with "trk auth login")')
    .argument('<key>', 'setting name')
    .argument('<value>', 'new value')
    .option('--create', 'create the profile when it is not saved yet (otherwise an unknown profile is refused)')
    .addHelpText(
      'after',
      examples(
        'trk config set api-version v2.1',
        'trk config set output json                 # the default output of this profile',
        'trk config set base-url https://staging.example.com --profile staging --create',
        'trk config set carrier-alias.DHL 7041 --sandbox   # "DHL" means carrier 7041 in the sandbox',
      ),
    )
    .action((key, value, o) =>
      lazy(
        invoke,
        () => import('./config.js'),
        (m, ctx) => m.runConfigSet({ key, value, create: o.create === true }, ctx),
      ),
    );
  prints(cmd.command('unset'), [])
    .description('remove one setting from the profile: its default applies again')
    .argument('<key>', 'setting name')
    .addHelpText('after', examples('trk config unset output', 'trk config unset base-url --profile staging'))
    .action((key) =>
      lazy(
        invoke,
        () => import('./config.js'),
        (m, ctx) => m.runConfigUnset({ key }, ctx),
      ),
    );
  cmd
    .command('list')
    .description('print every setting and carrier alias with its value and where it came from')
    .addHelpText('after', examples('trk config list', 'trk config list --profile shop-eu --csv'))
    .action(() =>
      lazy(
        invoke,
        () => import('./config.js'),
        (m, ctx) => m.runConfigList({}, ctx),
      ),
    );
};

export const declarations: Readonly<Record<string, Declare>> = { config };

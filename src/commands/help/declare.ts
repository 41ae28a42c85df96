// Declaration of `trk help [command...]` and its topics.

import { rootOf } from '../completion/declare.js';
import { examples, lazy, prints, type Declare } from '../define.js';

const help: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .argument(
      '[topic...]',
      'a command (e.g. "list", "auth login"), "exit-codes", or "options" (the options every command takes)',
    )
    .addHelpText('after', examples('trk help list', 'trk help auth login', 'trk help exit-codes', 'trk help options'))
    .action((topic) =>
      lazy(
        invoke,
        () => import('./help.js'),
        (m, ctx) => m.runHelp({ topic, program: rootOf(cmd) }, ctx),
      ),
    );

export const declarations: Readonly<Record<string, Declare>> = { help };

// Declaration of `trk webhook`: check and receive the notifications the service sends.

import { examples, lazy, nonNegativeInt, Option, prints, type Declare } from '../define.js';

const webhook: Declare = (cmd, invoke) => {
  cmd
    .command('verify')
    .description("check a notification's signature against the API key")
    .requiredOption('--body <file>', 'file holding the body exactly as received (- for stdin)')
    .option('--sign <value>', 'value of the sign header (v2, v2.1)')
    .option('--v1', 'apply the v1 rule (the sign is in the body)')
    .addHelpText('after', examples('trk webhook verify --body body.json --sign 3f1c...', 'trk webhook verify --body body.json --v1'))
    .action((o) => lazy(invoke, () => import('./webhook.js'), (m, ctx) => m.runWebhookVerify({ body: o.body, sign: o.sign, v1: o.v1 === true }, ctx)));
  // One line per notification: for people (table) or one JSON object a line (json, ndjson); no CSV.
  prints(cmd.command('listen'), ['table', 'json', 'ndjson'])
    .description('receive notifications, verify their signatures and print them (optionally forward them)')
    .addOption(new Option('--port <port>', 'port to listen on').argParser(nonNegativeInt('a port')))
    .option('--host <address>', 'address to listen on')
    .option('--path <path>', 'URL path to accept notifications on')
    .option('--forward-to <url>', 'forward each verified notification to this URL')
    .option('--save <dir>', 'save each body in this folder')
    .option('--skip-verify', 'accept every notification, reporting whether its signature held')
    .addHelpText('after', examples('trk webhook listen --port 4242 --forward-to http://localhost:3000/hook --save ./hooks'))
    .action((o) =>
      lazy(invoke, () => import('./webhook.js'), (m, ctx) =>
        m.runWebhookListen({ port: o.port, host: o.host, path: o.path, forwardTo: o.forwardTo, save: o.save, skipVerify: o.skipVerify === true }, ctx),
      ),
    );
};

export const declarations: Readonly<Record<string, Declare>> = { webhook };

// Declaration of `trk webhook`: check and receive the notifications the service sends.

import { PACKAGE_STATUSES, WEBHOOK_EVENTS } from '@trk/service/vocabulary.js';
import { DEFAULT_LISTEN_URL } from '../../webhook/address.js';
import { carrierOption, choiceOf, examples, lazy, nonNegativeInt, Option, prints, type Declare } from '../define.js';
import { dbOption } from '../mirror/args.js';

const webhook: Declare = (cmd, invoke) => {
  cmd.addHelpText(
    'after',
    examples(
      'trk webhook listen --save ./hooks',
      'trk webhook verify ./hooks/20261123T175200.000Z-TRACKING_UPDATED-RR123456789CN.json',
      'trk webhook listen --print | jq -c .data.number',
      'trk webhook replay ./hooks --forward-to http://localhost:3000/hook',
      'trk webhook trigger OutForDelivery --number RR123456789CN',
    ),
  );
  cmd
    .command('verify')
    .description("check a notification's signature against the API key")
    .argument(
      '[file]',
      'the body as received, or its .headers file, as "webhook listen --save" keeps them (the sign is read from ' +
        'the .headers file beside the body)',
    )
    .option('--body <file>', 'file holding the body exactly as received (- for stdin)')
    .option(
      '--headers <file>',
      'file holding the headers as received ("Name: value" lines): the sign header is read from it',
    )
    .option('--sign <value>', 'value of the sign header (v2, v2.1)')
    .option('--v1', 'apply the v1 rule (the sign is in the body)')
    .addHelpText(
      'after',
      examples(
        'trk webhook verify hooks/20261123T175200.000Z-TRACKING_UPDATED-RR123456789CN.json',
        'trk webhook verify --body body.json --sign 3f1c...',
        'trk webhook verify --body body.json --v1',
        'for f in hooks/*.json; do trk webhook verify -q "$f" || echo "forged: $f"; done',
      ),
    )
    .action((file, o) =>
      lazy(
        invoke,
        () => import('./webhook.js'),
        (m, ctx) =>
          m.runWebhookVerify({ file, body: o.body, headers: o.headers, sign: o.sign, v1: o.v1 === true }, ctx),
      ),
    );
  // One line per notification: for people (table) or one JSON object a line (json, ndjson); no CSV.
  prints(cmd.command('listen'), ['table', 'json', 'ndjson'])
    .description(
      'receive notifications, verify their signatures and print them (optionally save, forward and store them)',
    )
    .addOption(new Option('--port <port>', 'port to listen on').argParser(nonNegativeInt('a port')))
    .option('--host <address>', 'address to listen on')
    .option('--path <path>', 'URL path to accept notifications on')
    .option('--forward-to <url>', 'forward each verified notification to this URL (again, while the app fails)')
    .option(
      '--save <dir>',
      'save each notification in this folder: the body as received (.json) and its headers (.headers)',
    )
    .option('--print', 'print each body whole on stdout, one JSON a line (for jq); the event lines go to stderr')
    .option(
      '--store',
      'keep each verified notification in the account\'s mirror (see "trk sync"), answering 200 once it is written',
    )
    .option('--notify', 'run the rules of "trk notify" as notifications arrive, each stored first (needs --store)')
    .addOption(dbOption())
    .option('--skip-verify', 'accept every notification, reporting whether its signature held')
    .addHelpText(
      'after',
      examples(
        'trk webhook listen --port 4242 --forward-to http://localhost:3000/hook --save ./hooks',
        "trk webhook listen --print | jq -c '{number: .data.number, status: .data.track_info.latest_status.status}'",
        'trk webhook listen --host 0.0.0.0 --port 4242 --store --db postgres://trk@db.internal/trk',
      ),
    )
    .action((o) =>
      lazy(
        invoke,
        () => import('./listen.js'),
        (m, ctx) =>
          m.runWebhookListen(
            {
              port: o.port,
              host: o.host,
              path: o.path,
              forwardTo: o.forwardTo,
              save: o.save,
              print: o.print === true,
              store: o.store === true,
              notify: o.notify === true,
              db: o.db,
              skipVerify: o.skipVerify === true,
            },
            ctx,
          ),
      ),
    );
  cmd
    .command('replay')
    .description('send notifications kept by "webhook listen" (--save, or forwards that failed) to the app again')
    .argument('<path...>', 'folders (or .json files) of saved notifications')
    .option('--forward-to <url>', 'the app to send them to, with the headers received (the sign header among them)')
    .addHelpText(
      'after',
      examples(
        'trk webhook replay ~/.local/state/trk/webhook-queue/* --forward-to http://localhost:3000/hook',
        'trk webhook replay ./hooks --forward-to http://localhost:3000/hook --json',
      ),
    )
    .action((paths, o) =>
      lazy(
        invoke,
        () => import('./replay.js'),
        (m, ctx) => m.runWebhookReplay({ paths, forwardTo: o.forwardTo }, ctx),
      ),
    );
  trigger(cmd, invoke);
};

/** `trk webhook trigger`: a made-up notification of a chosen status, signed and sent to a listener. */
const trigger: Declare = (cmd, invoke) => {
  cmd
    .command('trigger')
    .description('send a listener a signed notification of a chosen status for a number, to rehearse a set-up')
    .argument('[status]', `${PACKAGE_STATUSES.join(', ')}; or a sub-status (DeliveryFailure_InvalidAddress)`)
    .option('--number <number>', 'the tracking number it is about (its tag and parameter come from the mirror)')
    .addOption(carrierOption("carrier code or name (default: the mirror's for the number)"))
    .option('--sub-status <name>', "the status's sub-status (default: its first, e.g. Delivered_Other)")
    .addOption(choiceOf('--event <name>', 'the event (default TRACKING_UPDATED)', WEBHOOK_EVENTS))
    .option('--to <url>', `the listener's URL (default ${DEFAULT_LISTEN_URL}, where "webhook listen" listens)`)
    .addOption(dbOption())
    .option('--dry-run', 'print the body on stdout (and its sign header on stderr) instead of sending it')
    .addHelpText(
      'after',
      examples(
        'trk webhook trigger OutForDelivery --number RR123456789CN',
        'trk webhook trigger DeliveryFailure_InvalidAddress --number RR123456789CN --dry-run | jq .data.tag',
        'trk webhook trigger --event TRACKING_STOPPED --number RR123456789CN --to http://127.0.0.1:3000/hook',
      ),
    )
    .action((status, o) =>
      lazy(
        invoke,
        () => import('./trigger.js'),
        (m, ctx) =>
          m.runWebhookTrigger(
            {
              status,
              number: o.number,
              carrier: o.carrier,
              subStatus: o.subStatus,
              event: o.event,
              to: o.to,
              db: o.db,
              dryRun: o.dryRun === true,
            },
            ctx,
          ),
      ),
    );
};

export const declarations: Readonly<Record<string, Declare>> = { webhook };

// trk webhook trigger: a made-up notification of a chosen status, signed and sent to a listener, to rehearse a
// set-up (its run in trigger-run.ts, loaded when it runs).

import { PACKAGE_STATUSES, WEBHOOK_EVENTS } from '@trk/service/vocabulary.js';
import { DEFAULT_LISTEN_URL } from '../../webhook/address.js';
import { carrierOption, choiceOf, examples, lazy, type Declare } from '../define.js';
import { dbOption } from '../mirror/args.js';

/** `trk webhook trigger`: a made-up notification of a chosen status, signed and sent to a listener. */
export const declaration: Declare = (cmd, invoke) => {
  cmd
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
        () => import('./trigger-run.js'),
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

// trk webhook: check, receive and rehearse the notifications the service sends (each command in its file).

import { examples, type Declare } from '../define.js';
import { declaration as listen } from './listen.js';
import { declaration as replay } from './replay.js';
import { declaration as trigger } from './trigger.js';
import { declaration as verify } from './verify.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'webhook',
  summary: 'check notifications the service sends to the webhook URL',
  section: 'account',
  group: true,
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) => {
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
  verify(cmd.command('verify'), invoke);
  listen(cmd.command('listen'), invoke);
  replay(cmd.command('replay'), invoke);
  trigger(cmd.command('trigger'), invoke);
};

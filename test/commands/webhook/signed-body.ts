// A notification as the service sends it, signed with a made-up key: the body the webhook commands' tests verify,
// listen for and replay.

import { createHash } from 'node:crypto';
import { fixtureBytes } from '../../fixture-files.js';

export const KEY = 'cmd-test-key';
export const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
export const BODY = fixtureBytes('doc-v2/webhook_tracking_stopped.json'); // pretty-printed, as it is on disk
export const SIGN = sha(Buffer.concat([BODY, Buffer.from(`/${KEY}`)]));

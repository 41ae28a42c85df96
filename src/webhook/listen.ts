// A local webhook receiver in the manner of `stripe listen`: it verifies each notification over the raw bytes,
// answers at once (the service gives up after a few seconds and retries 10, 30 and 60 minutes later), then
// prints, saves and forwards. Used by `trk webhook listen` and by tests of the emulator's deliveries.
//
// The entry point of the listener, whose parts are in listener/: its life (lifecycle.ts), one request from arrival
// to answer (pipeline.ts), turns to read bodies (admission.ts), the body (body.ts), the signature
// (verification.ts), where accepted notifications go (sinks/), its bounds (limits.ts), the refusal log
// (refusals.ts) and how notifications are shown (lines.ts).

export { DEFAULT_LISTEN_HOST, DEFAULT_LISTEN_PATH, DEFAULT_LISTEN_PORT, startListener } from './listener/lifecycle.js';
export { DEFAULT_MAX_BODY_BYTES } from './listener/limits.js';
export { REFUSALS_SHOWN } from './listener/refusals.js';
export { forwardHeaders, type ForwardResult } from './forward.js';
export type { Listener, ListenerCounts, ListenerOptions, ReceivedEvent } from './listener/types.js';
export type { Sink } from './listener/sinks/sink.js';

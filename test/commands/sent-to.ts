// What a command sent, read from the fake context's recording client.
import type { Fake } from '../fake-context.js';

/** What was sent to `op` (the engine reads the quota first for operations that cost it). */
export const sentTo = (fake: Fake, op: string) => fake.calls.filter((c) => c.op === op).map((c) => c.body);

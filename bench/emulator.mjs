// The emulator in a process of its own, for the benchmarks that time trk as users run it (a process per
// command): a process that competes with trk for the CPU is what a real service is not, so it must not be trk.
// Prints one JSON line `{"url":...,"key":...}` on stdout once it listens; answers control requests on stdin:
//   one JSON line per request, e.g. {"state":true} → the state as one JSON line, {"settings":{...}}, {"faults":{...}}.
// Exits when stdin closes.
//
//   node bench/emulator.mjs '{"rateLimit":0,"latencyMs":0}'

import { createInterface } from 'node:readline';
import { startSandbox } from '../dist/sandbox/index.js';

const opts = JSON.parse(process.argv[2] ?? '{}');
const sandbox = await startSandbox({ strictPaths: true, ...opts });
process.stdout.write(`${JSON.stringify({ url: sandbox.url, key: sandbox.key })}\n`);
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const req = JSON.parse(line);
  if (req.faults) sandbox.setFaults(req.faults);
  if (req.settings) sandbox.setSettings(req.settings);
  process.stdout.write(`${JSON.stringify(req.state ? sandbox.state() : { ok: true })}\n`);
}
await sandbox.close();

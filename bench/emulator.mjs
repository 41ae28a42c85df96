// The emulator in a process of its own, for the benchmarks that time trk as users run it (a process per
// command): a process that competes with trk for the CPU is what a real service is not, so it must not be trk.
// Prints one JSON line `{"url":...,"key":...}` on stdout once it listens; answers control requests on stdin:
//   one JSON line per request, e.g. {"state":true} → the state as one JSON line, {"settings":{...}}, {"faults":{...}},
//   {"arrivals":"register"} → the arrival times (real ms) of the answered requests of that operation since the
//   last such request; {"log":true} → every request since the last such request, in order of arrival, as
//   [operation, arrival, answered, status] (real ms of this process's clock; status "dropped" when unanswered).
// Exits when stdin closes.
//
//   node bench/emulator.mjs '{"rateLimit":0,"latencyMs":0}'

import { createInterface } from 'node:readline';
import { startSandbox } from '@trk/sandbox';

const opts = JSON.parse(process.argv[2] ?? '{}');
const arrivals = new Map();
const log = [];
const sandbox = await startSandbox({
  strictPaths: true,
  ...opts,
  onRequest: (entry) => {
    const now = performance.now();
    if (entry.operation !== null) log.push([entry.operation, now - entry.ms, now, entry.status]);
    if (entry.operation === null || entry.status !== 200) return;
    const list = arrivals.get(entry.operation) ?? [];
    list.push(now - entry.ms);
    arrivals.set(entry.operation, list);
  },
});
process.stdout.write(`${JSON.stringify({ url: sandbox.url, key: sandbox.key })}\n`);
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const req = JSON.parse(line);
  if (req.faults) sandbox.setFaults(req.faults);
  if (req.settings) sandbox.setSettings(req.settings);
  let answer = { ok: true };
  if (req.state) answer = sandbox.state();
  if (req.log) answer = log.splice(0).sort((a, b) => a[1] - b[1]);
  if (req.arrivals) {
    answer = (arrivals.get(req.arrivals) ?? []).sort((a, b) => a - b);
    arrivals.delete(req.arrivals);
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
await sandbox.close();

// The emulator as the benchmarks' service: bench/emulator.mjs in a process of its own, started at a higher
// scheduling priority where this user may (root: `nice -n -10`). A real service runs on machines of its own,
// which the load on trk's machine cannot slow down; the emulator shares the benchmark machine, and a CPU-bound
// process beside trk would otherwise delay when it notes each request's arrival, the very thing its strict rate
// limit counts. Elsewhere it runs at the ordinary priority, and says so.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'emulator.mjs');
const canRaise = process.getuid?.() === 0 && spawnSync('nice', ['-n', '-10', 'true']).status === 0;
let told = false;

/** Starts the emulator with `options` (bench/emulator.mjs); control() sends it one request and returns its answer. */
export async function startService(options) {
  if (!canRaise && !told) {
    told = true;
    console.error('(the emulator runs at the ordinary priority: a CPU-bound process beside trk slows it down too)');
  }
  const args = [script, JSON.stringify(options)];
  const child = canRaise
    ? spawn('nice', ['-n', '-10', process.execPath, ...args], { stdio: ['pipe', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await replies.next();
  if (first.done) throw new Error('the emulator did not start');
  const { url, key } = JSON.parse(first.value);
  return {
    url,
    key,
    async control(request) {
      child.stdin.write(`${JSON.stringify(request)}\n`);
      return JSON.parse((await replies.next()).value);
    },
    close: () => child.stdin.end(),
  };
}

/** The service's clock moved on by `ms` (the emulator's own control route). */
export async function advance(service, ms) {
  const res = await fetch(`${service.url}/__sandbox/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });
  if (!res.ok) throw new Error(`advance answered HTTP ${res.status}`);
}

/**
 * `count` China Post numbers (RR100000001CN, ...) registered with the service, 40 a request as trk sends them;
 * `afterEach(batches)` runs after each request (a benchmark spreading the registrations over the service's time).
 */
export async function registerNumbers(service, count, afterEach = async () => {}) {
  const batches = Math.ceil(count / 40);
  for (let i = 0; i < count; i += 40) {
    const body = Array.from({ length: Math.min(40, count - i) }, (_, k) => ({
      number: `RR${String(100000001 + i + k)}CN`,
      carrier: 3011,
    }));
    const res = await fetch(`${service.url}/track/v2.1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', svctoken: service.key },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`register answered HTTP ${res.status}`);
    await afterEach(batches);
  }
}

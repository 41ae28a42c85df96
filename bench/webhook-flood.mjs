// Memory of `trk webhook listen` under a flood: the built CLI is started on a free loopback port, then sent
// `posts` notifications of `sizeMB` each with a wrong signature, all at once, and as many small unsigned ones;
// that `rounds` times over, so that a listener that kept anything would grow from round to round.
// The default size sits just under the listener's 4 MB limit, so that every large body is read to its end and
// refused for its signature (larger ones are refused from their Content-Length, before a byte is read).
// Reports the listener's peak RSS (VmHWM from /proc, Linux) and its RSS once the flood is over, how the posts
// were answered, and how long the flood took. The listener keeps counters, not bodies: its peak should stay near
// its idle size plus the few bodies it reads at once, however many or large the posts.
//
//   npm run build && node bench/webhook-flood.mjs [posts=80] [sizeMB=3.9] [rounds=5]
//
// Before the listener bounded what it holds, 80 posts of 15 MB took it to 2.9 GB, never freed.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { trkEnv } from './trk-env.mjs';

const posts = Number(process.argv[2] ?? 80);
const sizeMB = Number(process.argv[3] ?? 3.9);
const rounds = Number(process.argv[4] ?? 5);
const trk = fileURLToPath(new URL('../bin/trk.js', import.meta.url));
const home = mkdtempSync(path.join(tmpdir(), 'trk-flood-'));

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peakMB: Math.round(kb('VmHWM') / 1024), nowMB: Math.round(kb('VmRSS') / 1024) };
}

const child = spawn(process.execPath, [trk, 'webhook', 'listen', '--port', '0', '--json'], {
  env: trkEnv(home, { key: 'flood-bench-key-0000000000000000' }, { NO_COLOR: '1' }),
  stdio: ['ignore', 'ignore', 'pipe'],
});
let stderr = '';
const url = await new Promise((resolve, reject) => {
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
    const m = /Listening on (\S+)/.exec(stderr);
    if (m) resolve(m[1]);
  });
  child.on('exit', (code) => reject(new Error(`trk webhook listen exited ${code}: ${stderr}`)));
});
await new Promise((r) => setTimeout(r, 500));
const idle = memory(child.pid);

// One buffer sent over and over: this process stays small, the listener sees `posts` distinct bodies.
const big = Buffer.alloc(Math.round(sizeMB * 1024 * 1024), 0x20);
big.write('{"event":"TRACKING_UPDATED","data":{"number":"RR123456789CN"},"pad":"');
big.write('"}', big.length - 2);
const small = Buffer.from('{"event":"TRACKING_UPDATED","data":{"number":"RR123456789CN"}}');
const agent = new Agent({ connections: posts * 2 });
const answers = {};
const send = async (body, headers) => {
  try {
    const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, dispatcher: agent });
    await res.body.dump();
    answers[res.statusCode] = (answers[res.statusCode] ?? 0) + 1;
  } catch (err) {
    const why = err.code ?? err.name;
    answers[why] = (answers[why] ?? 0) + 1;
  }
};

const started = performance.now();
const peakAfterRound = [];
for (let round = 0; round < rounds; round++) {
  await Promise.all([
    ...Array.from({ length: posts }, () => send(big, { sign: '0'.repeat(64) })),
    ...Array.from({ length: posts }, () => send(small, {})),
  ]);
  peakAfterRound.push(memory(child.pid).peakMB);
}
const seconds = (performance.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 1000));
const after = memory(child.pid);

child.kill('SIGINT');
await new Promise((r) => child.on('exit', r));
await agent.close();
rmSync(home, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      posts: posts * 2 * rounds,
      perRound: `${posts} x ${sizeMB} MB with a bad signature and ${posts} small unsigned, all at once`,
      rounds,
      answers,
      seconds: Number(seconds.toFixed(1)),
      idleRssMB: idle.nowMB,
      peakRssMB: after.peakMB,
      peakRssMBAfterEachRound: peakAfterRound,
      rssAfterMB: after.nowMB,
      summary: /stopped: .*/.exec(stderr)?.[0],
    },
    null,
    2,
  ),
);

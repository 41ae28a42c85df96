// `trk webhook listen` under attack: the built CLI is started on a free loopback port and faced with one of three
// floods, each from other loopback addresses (127.0.0.2 and up) than the genuine sender's (127.0.0.1), as the
// service's address differs from an attacker's:
//   bodies  `posts` notifications of `sizeMB` each with a wrong signature, all at once, and as many small unsigned
//           ones; that `rounds` times over, so that a listener that kept anything would grow from round to round.
//           The default size sits just under the listener's 4 MB limit, so that every large body is read to its
//           end and refused for its signature (larger ones are refused from their Content-Length, unread).
//   slow    100 senders that trickle their bodies a byte a second (half announce 2 KB, half 3 MB), and start
//           again whenever they are cut off, for `seconds`.
//   idle    3,000 connections that send nothing, opened again whenever the listener closes one, for `seconds`.
// During slow and idle a genuine notification is sent every half second on a new connection: the bench reports
// how many were answered 200 and how fast. Every case reports the listener's peak RSS (VmHWM from /proc, Linux)
// and RSS after, and its peak count of file descriptors: both should stay near idle, whatever the flood.
//
//   npm run build && node bench/webhook-flood.mjs [all|bodies|slow|idle] [seconds=20]
//   node bench/webhook-flood.mjs bodies [posts=80] [sizeMB=3.9] [rounds=5]
//
// Before the listener bounded what it holds, 80 posts of 15 MB took it to 2.9 GB, never freed. Before it
// required a pace of bodies and made room for new connections, the slow flood kept genuine notifications at 503
// for 30 s, and 3,000 idle connections had them reset.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { trkEnv } from './trk-env.mjs';

const KEY = 'flood-bench-key-0000000000000000';
const trk = fileURLToPath(new URL('../bin/trk.js', import.meta.url));
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
/** Attacker `i`'s address, `perAddress` to one (under the listener's 64 an address, unless said otherwise). */
const attacker = (i, perAddress) => `127.0.0.${2 + Math.floor(i / perAddress)}`;

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peakMB: Math.round(kb('VmHWM') / 1024), nowMB: Math.round(kb('VmRSS') / 1024) };
}

const descriptors = (pid) => readdirSync(`/proc/${pid}/fd`).length;

/** `trk webhook listen` in a process of its own, with its URL, its stderr so far, and a sampler of its fds. */
async function startListener() {
  const home = mkdtempSync(path.join(tmpdir(), 'trk-flood-'));
  const child = spawn(process.execPath, [trk, 'webhook', 'listen', '--port', '0', '--json'], {
    env: trkEnv(home, { key: KEY }, { NO_COLOR: '1' }),
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
  await pause(500);
  const idle = { ...memory(child.pid), fds: descriptors(child.pid) };
  let peakFds = idle.fds;
  const sampler = setInterval(() => (peakFds = Math.max(peakFds, descriptors(child.pid))), 250);
  return {
    url,
    pid: child.pid,
    port: Number(new URL(url).port),
    idle,
    async stop() {
      clearInterval(sampler);
      await pause(1000);
      const after = memory(child.pid);
      const fdsAfter = descriptors(child.pid);
      child.kill('SIGINT');
      await new Promise((r) => child.on('exit', r));
      rmSync(home, { recursive: true, force: true });
      return {
        idleRssMB: idle.nowMB,
        peakRssMB: after.peakMB,
        rssAfterMB: after.nowMB,
        idleFds: idle.fds,
        peakFds,
        fdsAfter,
        summary: /stopped: .*/.exec(stderr)?.[0],
      };
    },
  };
}

/** One genuine notification from 127.0.0.1 on a new connection: its status (or error) and time. */
function genuine(port) {
  const body = Buffer.from('{"event":"TRACKING_STOPPED","data":{"number":"RR123456789CN","carrier":3011}}');
  const sign = createHash('sha256')
    .update(Buffer.concat([body, Buffer.from(`/${KEY}`)]))
    .digest('hex');
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/hook',
        method: 'POST',
        agent: false,
        localAddress: '127.0.0.1',
        headers: { 'content-type': 'application/json', 'content-length': body.length, sign },
        timeout: 15_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0 }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (e) => resolve({ status: e.code ?? e.message, ms: performance.now() - t0 }));
    req.end(body);
  });
}

/** A genuine notification every half second until `until`; what became of them. */
async function genuineEvery(port, until) {
  const answers = [];
  const inFlight = [];
  while (performance.now() < until) {
    inFlight.push(genuine(port).then((a) => answers.push(a)));
    await pause(500);
  }
  await Promise.all(inFlight);
  const ok = answers
    .filter((a) => a.status === 200)
    .map((a) => a.ms)
    .sort((a, b) => a - b);
  const statuses = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  return {
    sent: answers.length,
    answered200: ok.length,
    statuses,
    medianMs: ok.length ? Number(ok[Math.floor(ok.length / 2)].toFixed(1)) : null,
    maxMs: ok.length ? Number(ok.at(-1).toFixed(1)) : null,
  };
}

/** A connection from `from` that `start` puts to work, opened again when it closes, until `until`. */
function holdOn(port, from, until, start, counts) {
  const again = () => {
    if (performance.now() >= until) return;
    counts.connections += 1;
    const s = connect({ port, host: '127.0.0.1', localAddress: from });
    s.on('error', () => {});
    s.on('data', (d) => {
      const status = /^HTTP\/1\.1 (\d+)/.exec(d.toString('latin1'))?.[1];
      if (status) counts.answers[status] = (counts.answers[status] ?? 0) + 1;
    });
    s.once('connect', () => start(s));
    // Held sockets are counted while the flood lasts; a closed one comes back a second later.
    s.once('close', () => setTimeout(again, 1000));
    counts.sockets.add(s);
    s.once('close', () => counts.sockets.delete(s));
  };
  again();
}

async function caseBodies(posts, sizeMB, rounds) {
  const listener = await startListener();
  // One buffer sent over and over: this process stays small, the listener sees `posts` distinct bodies.
  const big = Buffer.alloc(Math.round(sizeMB * 1024 * 1024), 0x20);
  big.write('{"event":"TRACKING_UPDATED","data":{"number":"RR123456789CN"},"pad":"');
  big.write('"}', big.length - 2);
  const small = Buffer.from('{"event":"TRACKING_UPDATED","data":{"number":"RR123456789CN"}}');
  // 40 senders an address, under the listener's limit of one address's connections.
  const agents = Array.from(
    { length: Math.ceil((posts * 2) / 40) },
    (_, i) => new Agent({ connections: 40, localAddress: attacker(i * 40, 40) }),
  );
  const answers = {};
  const send = async (i, body, headers) => {
    try {
      const res = await request(listener.url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
        dispatcher: agents[Math.floor(i / 40)],
      });
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
      ...Array.from({ length: posts }, (_, i) => send(i, big, { sign: '0'.repeat(64) })),
      ...Array.from({ length: posts }, (_, i) => send(posts + i, small, {})),
    ]);
    peakAfterRound.push(memory(listener.pid).peakMB);
  }
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(agents.map((a) => a.close()));
  return {
    case: 'bodies',
    posts: posts * 2 * rounds,
    perRound: `${posts} x ${sizeMB} MB with a bad signature and ${posts} small unsigned, all at once`,
    rounds,
    answers,
    seconds: Number(seconds.toFixed(1)),
    peakRssMBAfterEachRound: peakAfterRound,
    ...(await listener.stop()),
  };
}

/** The listener faced with `flood` for `seconds` while genuine notifications come: what became of both. */
async function underFlood(seconds, flood) {
  const listener = await startListener();
  const until = performance.now() + seconds * 1000;
  const counts = { connections: 0, answers: {}, sockets: new Set() };
  await flood(listener.port, until, counts);
  await pause(2000);
  const heldAfter2s = counts.sockets.size;
  const genuine = await genuineEvery(listener.port, until);
  for (const s of counts.sockets) s.destroy();
  const attackers = { connections: counts.connections, answers: counts.answers, openOnTheirSideAfter2s: heldAfter2s };
  return { seconds, genuine, attackers, ...(await listener.stop()) };
}

function caseSlow(seconds) {
  const trickle = (length) => (s) => {
    s.write(`POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n{`);
    const timer = setInterval(() => (s.destroyed ? clearInterval(timer) : s.write('x')), 1000);
  };
  return underFlood(seconds, async (port, until, counts) => {
    for (let i = 0; i < 100; i++) holdOn(port, attacker(i, 10), until, trickle(i % 2 ? 3_000_000 : 2000), counts);
  }).then((r) => ({ case: 'slow', flood: '100 senders trickling a byte a second, from 10 addresses', ...r }));
}

function caseIdle(seconds) {
  // 100 an address: over the listener's 64 an address, and 3,000 in all over its 1,024.
  return underFlood(seconds, async (port, until, counts) => {
    for (let i = 0; i < 3000; i++) {
      holdOn(port, attacker(i, 100), until, () => {}, counts);
      if (i % 200 === 199) await pause(20);
    }
  }).then((r) => ({ case: 'idle', flood: '3,000 connections sending nothing, from 30 addresses', ...r }));
}

const [which = 'all', ...rest] = process.argv.slice(2);
const results = [];
if (/^\d/.test(which)) results.push(await caseBodies(Number(which), Number(rest[0] ?? 3.9), Number(rest[1] ?? 5)));
if (which === 'bodies')
  results.push(await caseBodies(Number(rest[0] ?? 80), Number(rest[1] ?? 3.9), Number(rest[2] ?? 5)));
if (which === 'all') results.push(await caseBodies(80, 3.9, 5));
if (which === 'slow' || which === 'all') results.push(await caseSlow(Number(rest[0] ?? 20)));
if (which === 'idle' || which === 'all') results.push(await caseIdle(Number(rest[0] ?? 20)));
console.log(JSON.stringify(results.length === 1 ? results[0] : results, null, 2));

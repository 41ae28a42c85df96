// V8's heap kept small for a long run, whichever part of trk finds the run long.

import { nodeV8 } from './node.js';

/**
 * A long run: a second request (an input of thousands of numbers, every page of a long list, --watch), whose
 * answers are a few hundred kilobytes each that die young, or the checking pass of a long input, whose rows do
 * (src/items/scan.ts). V8 doubles its young generation whenever a collection finds much of it alive (up to 16 MiB a
 * semi-space on 64-bit Node 20 and 22, more on 24) and lets the old generation grow before it collects it: 30-50 MiB
 * more peak memory for a run that the service's pace (3 requests a second) leaves idle most of the time anyway, and
 * on Node 24 a checking pass that grew with its input (5,000,000 rows: 221 MB against 144 for 1,000,000).
 * `trk info -f` of 5,000 numbers peaked at 101-103 / 111 / 119-120 MiB on Node 20 / 22 / 24; with the young
 * generation kept at its size, 70-73 / 78 / 94-103 MiB; with V8 also optimising for size, 69 / 77 / 86 MiB. That
 * costs a run of 42 s some 0.1-0.2 s of CPU (bench/info-memory.mjs), and the checking pass 8 % (Node 20) to 25 %
 * (Node 24) of its time (bench/parse-1m.mjs). V8 reads these flags when it decides, so setting them while running
 * takes effect (the flags that size the heap are read once, at start).
 */
export function keepHeapSmall(): void {
  nodeV8().setFlagsFromString('--semi-space-growth-factor=1 --optimize-for-size');
}

/** The commands whose long run waits on the disk or the service (skipOptimisingCompilers): first word, or two. */
const WAITING_RUNS: ReadonlySet<string> = new Set(['sync', 'report', 'webhook listen']);

/** Whether the command named by `words` (registry.ts's commandWords) is one of WAITING_RUNS. */
export function isWaitingRun(words: readonly string[]): boolean {
  return WAITING_RUNS.has(words[0] ?? '') || WAITING_RUNS.has(words.slice(0, 2).join(' '));
}

/**
 * A long run whose JavaScript waits on the network or the disk (a listener storing notifications, a sync at the
 * service's pace, a report whose database counts the groups): V8's optimising compilers (TurboFan; Maglev on Node
 * 22 and 24) cost more memory than the run needs their speed, in their own zones, in the optimised code and in
 * the pages of Node's binary they run. `webhook listen --store` taking 20,000 notifications from 64 senders
 * peaked at 82 / 89 / 112 MiB on Node 20 / 22 / 24 with them and 77 / 83 / 84 MiB without; it then stores
 * 1,300-2,000 a second instead of 1,900-3,700, where the service sends a few a second and the target is 500. A
 * first sync of 1,200 records peaked at 84 and 76 MiB on Node 22, at the service's pace. They are set by `main`
 * (src/cli.ts) before the command's modules load: while they load, V8 finds two functions of Node's path module
 * hot and has TurboFan compile them, which alone leaves some 5 MiB of the compiler's code resident on Node 20 and
 * 22 (set in the command, they came after that). Set while running, they take effect for the
 * functions not yet optimised.
 */
export function skipOptimisingCompilers(): void {
  nodeV8().setFlagsFromString('--no-opt --no-maglev');
}

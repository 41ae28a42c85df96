// What runs leave behind: journals of runs never resumed, spool copies of stdin of killed runs. Whether their
// owner still runs decides whether they may go.

import type { Stats } from 'node:fs';
import path from 'node:path';
import { nodeCrypto, nodeFs } from '../core/node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up"): the checking pass of
// `trk info N` comes here (src/items/scratch.ts).
const { readdirSync, readFileSync, rmSync, statSync } = nodeFs();

/** Whether another process still runs (its pid is taken over by nobody else we could signal). */
/**
 * A name part of this process (its pid first, as isAlive reads it back), unique however quickly one process makes
 * another (a script running commands in one process).
 */
export function uniqueStamp(): string {
  return `${process.pid}-${Date.now().toString(36)}-${nodeCrypto().randomBytes(4).toString('hex')}`;
}

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When a process started, as the kernel counts it (Linux: clock ticks since boot, /proc/PID/stat field 22);
 * undefined where that cannot be read. A pid alone does not name a process for long: once its owner is gone the
 * system hands the number to the next process, and only the start time tells the two apart.
 */
export function processStartTime(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces and parentheses of its own.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const started = fields[19];
  return started !== undefined && /^\d+$/.test(started) ? started : undefined;
}

/**
 * Remove the files (and folders, with what they hold) of `dir` that `stale` says may go; one raced away by its owner
 * is left alone.
 */
export function pruneFiles(dir: string, stale: (name: string, stat: Stats, file: string) => boolean): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (stale(name, statSync(file), file)) rmSync(file, { recursive: true, force: true });
    } catch {
      // raced with another process: nothing to do
    }
  }
}

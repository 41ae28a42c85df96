// Runs of an item command over a file or a pipe, remembered between invocations. An interrupted run is its
// journal (src/items/journal.ts); a finished run leaves a small record under `<state dir>/runs/`. Before
// anything is sent:
//   - the same input finished before (same account, operation and content) is not sent again without --again:
//     a cron job whose file was not rotated must not pay twice. For operations that cost nothing, only a run
//     with the same options counts (`update --tag b` after `--tag a` is a new intent);
//   - an interrupted run of the same input with the same options is resumed;
//   - an interrupted run of the same file with other options, or of the file before it was edited, is named and
//     the user is asked for --restart, rather than silently starting over (which would re-send what was done).
// `trk runs` lists both kinds and forgets them.

import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../config/paths.js';
import { isCharging } from './fields.js';
import { Journal, runKey, type JournalSummary, type RunIdentity } from './journal.js';

/** Finished-run records are kept this long: a file imported again within half a year is caught. */
const KEEP_FINISHED_MS = 180 * 24 * 3600 * 1000;

export interface RunCounts {
  /** Items in the input (valid rows). */
  total: number;
  accepted: number;
  already: number;
  rejected: number;
  /** Rows set aside by --skip-invalid. */
  invalid: number;
}

export interface FinishedRun {
  key: string;
  identity: RunIdentity;
  /** ISO time. */
  finished: string;
  counts: RunCounts;
}

export interface RunFolders {
  journals: string;
  finished: string;
}

export function runFolders(stateDir: string): RunFolders {
  return { journals: path.join(stateDir, 'journals'), finished: path.join(stateDir, 'runs') };
}

/** Same account (profile and service; the version does not change what was paid for) and operation. */
function sameAccountAndOp(a: RunIdentity, b: RunIdentity): boolean {
  return a.op === b.op && a.account.profile === b.account.profile && a.account.baseUrl === b.account.baseUrl;
}

function sameOptions(a: RunIdentity, b: RunIdentity): boolean {
  return JSON.stringify(a.options) === JSON.stringify(b.options) && a.account.version === b.account.version;
}

/** The record of a finished run this one would repeat, if any. */
export function findFinished(folders: RunFolders, id: RunIdentity): FinishedRun | undefined {
  let best: FinishedRun | undefined;
  for (const run of listFinished(folders)) {
    if (!sameAccountAndOp(run.identity, id) || run.identity.input.digest !== id.input.digest) continue;
    if (!isCharging(id.op) && !sameOptions(run.identity, id)) continue;
    if (!best || run.finished > best.finished) best = run;
  }
  return best;
}

export function recordFinished(folders: RunFolders, run: FinishedRun): void {
  ensurePrivateDir(folders.finished);
  const file = path.join(folders.finished, `${run.key}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(run, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function listFinished(folders: RunFolders): FinishedRun[] {
  let names: string[];
  try {
    names = readdirSync(folders.finished).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const cutoff = Date.now() - KEEP_FINISHED_MS;
  const out: FinishedRun[] = [];
  for (const name of names) {
    const file = path.join(folders.finished, name);
    try {
      if (statSync(file).mtimeMs < cutoff) {
        rmSync(file, { force: true });
        continue;
      }
      const run = JSON.parse(readFileSync(file, 'utf8')) as FinishedRun;
      if (typeof run.key === 'string' && typeof run.finished === 'string' && run.identity?.input && run.counts) out.push(run);
    } catch {
      // unreadable or being written: not a record to act on
    }
  }
  return out;
}

export interface InterruptedMatch {
  /** The journal of this very run: resume it. */
  same?: JournalSummary;
  /** A journal of the same file (or the same piped content) with other options, or before the file changed. */
  other?: JournalSummary;
}

export function findInterrupted(folders: RunFolders, id: RunIdentity): InterruptedMatch {
  const key = runKey(id);
  const match: InterruptedMatch = {};
  for (const j of Journal.list(folders.journals)) {
    const other = j.identity;
    if (j.key === key) {
      match.same = j;
      continue;
    }
    if (!other || !sameAccountAndOp(other, id)) continue;
    // A pipe brings new content every day; only the same content with other options is the same input.
    const sameInput = id.input.kind === 'file' ? other.input.name === id.input.name : other.input.digest === id.input.digest;
    if (sameInput && (!match.other || j.modified > match.other.modified)) match.other = j;
  }
  return match;
}

/** Interrupted and finished runs, newest first, for `trk runs`. */
export interface RunEntry {
  id: string;
  state: 'interrupted' | 'running' | 'finished';
  command: string;
  input: string;
  /** ISO time: finished, or last written. */
  when: string;
  done: number;
  total?: number;
  account: string;
}

export function listRuns(folders: RunFolders): RunEntry[] {
  const entries: RunEntry[] = [];
  for (const j of Journal.list(folders.journals)) {
    const id = j.identity;
    entries.push({
      id: j.key.slice(0, 12),
      state: j.running ? 'running' : 'interrupted',
      command: id?.command ?? '?',
      input: id?.input.display ?? '?',
      when: new Date(j.modified).toISOString(),
      done: j.doneItems,
      account: id ? accountText(id) : '?',
    });
  }
  for (const r of listFinished(folders)) {
    entries.push({
      id: r.key.slice(0, 12),
      state: 'finished',
      command: r.identity.command,
      input: r.identity.input.display,
      when: r.finished,
      done: r.counts.accepted + r.counts.already,
      total: r.counts.total,
      account: accountText(r.identity),
    });
  }
  return entries.sort((a, b) => (a.when < b.when ? 1 : a.when > b.when ? -1 : 0));
}

function accountText(id: RunIdentity): string {
  return `${id.account.profile} ${id.account.version}`;
}

/** Forget runs whose id starts with `prefix` (both kinds); returns how many went. A running one is refused. */
export function forgetRuns(folders: RunFolders, prefix: string | undefined): { forgotten: number; running: number } {
  let forgotten = 0;
  let running = 0;
  for (const j of Journal.list(folders.journals)) {
    if (prefix !== undefined && !j.key.startsWith(prefix)) continue;
    if (j.running) {
      running += 1;
      continue;
    }
    rmSync(j.file, { force: true });
    forgotten += 1;
  }
  for (const r of listFinished(folders)) {
    if (prefix !== undefined && !r.key.startsWith(prefix)) continue;
    rmSync(path.join(folders.finished, `${r.key}.json`), { force: true });
    forgotten += 1;
  }
  return { forgotten, running };
}

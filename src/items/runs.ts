// Runs of an item command over a file or a pipe, remembered between invocations. An interrupted run is its
// journal (src/items/journal.ts) and rows log (rows-log.ts); a finished run leaves a small record under
// `<state dir>/runs/`, and a file's confirmed requests are kept apart (sent.ts). A run is named by its requests
// (src/items/digest.ts), so any option that changes what is sent makes another run. Before anything is sent:
//   - the same requests finished before (same account, operation and requests) are not sent again without
//     --again: a cron job whose file was not rotated must not pay twice. For operations that cost nothing, only a
//     run with the same options counts (delete --ignore-missing reads answers differently);
//   - an interrupted run of the same requests is resumed;
//   - an interrupted run of the same file with other requests (the file was rewritten, or run with another
//     option) gives way to the new one: what it confirmed is not sent again, and what it never sent that the new
//     file no longer holds is named (`leftBehind`), never silently dropped. A cron job is never stuck on it.
//   - a damaged record of a finished run is not taken as "nothing was sent": the run looks its numbers up.
// `trk runs` lists both kinds and forgets them.

import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ownFolder, PRIVATE_FILE_MODE, type Warn } from '../core/private-files.js';
import { DigestList } from './digest.js';
import { isCharging } from './fields.js';
import { Journal, runKey, type ChunkOutcome, type JournalSummary, type RunIdentity } from './journal.js';
import { readRowsLog, rowsLogFile, type LoggedRow } from './rows-log.js';
import { forgetSent, KEEP_SENT_MS, sentFile } from './sent.js';

/** Finished-run records are kept this long: a file imported again within half a year is caught. */
const KEEP_FINISHED_MS = KEEP_SENT_MS;

export interface RunCounts {
  /** Items the run sent (valid rows, less those sent before). */
  total: number;
  /** Valid rows left out because an earlier run of the file had confirmed them (absent in older records). */
  sentBefore?: number;
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
  /** Confirmed requests of each file (src/items/sent.ts). */
  sent: string;
}

export function runFolders(stateDir: string): RunFolders {
  return {
    journals: path.join(stateDir, 'journals'),
    finished: path.join(stateDir, 'runs'),
    sent: path.join(stateDir, 'sent'),
  };
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

export function recordFinished(folders: RunFolders, run: FinishedRun, warn: Warn): void {
  ownFolder(folders.finished, 'runs folder', warn);
  const file = path.join(folders.finished, `${run.key}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(run, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(tmp, file);
}

/**
 * Whether the record this run would leave is there but cannot be read (garbage, empty): what it said is unknown,
 * so the run looks up what it sends rather than taking it as never sent.
 */
export function finishedRecordDamaged(folders: RunFolders, id: RunIdentity): boolean {
  const file = path.join(folders.finished, `${runKey(id)}.json`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  return parseFinished(text) === undefined;
}

function parseFinished(text: string): FinishedRun | undefined {
  try {
    const run = JSON.parse(text) as FinishedRun;
    const sound = typeof run?.key === 'string' && typeof run.finished === 'string' && run.identity?.input && run.counts;
    return sound ? run : undefined;
  } catch {
    return undefined;
  }
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
      const run = parseFinished(readFileSync(file, 'utf8'));
      if (run) out.push(run);
    } catch {
      // unreadable or being written: not a record to act on
    }
  }
  return out;
}

export interface InterruptedMatch {
  /** The journal of this very run (the same requests and options): resume it. */
  same?: JournalSummary;
  /** Journals of the same file (or the same piped content) with other requests or options. */
  others: JournalSummary[];
}

export function findInterrupted(folders: RunFolders, id: RunIdentity): InterruptedMatch {
  const key = runKey(id);
  const match: InterruptedMatch = { others: [] };
  for (const j of Journal.list(folders.journals)) {
    const other = j.identity;
    if (j.key === key) {
      match.same = j;
      continue;
    }
    if (!other || !sameAccountAndOp(other, id)) continue;
    // A pipe brings new content every day; only the same content with other options is the same input.
    const sameInput =
      id.input.kind === 'file' ? other.input.name === id.input.name : other.input.digest === id.input.digest;
    if (sameInput) match.others.push(j);
  }
  match.others.sort((a, b) => b.modified - a.modified);
  return match;
}

/** What an interrupted run leaves when a run of other requests takes its place. */
export interface LeftBehind {
  /** Digests of the requests the service confirmed to it: not sent again. */
  confirmed: DigestList;
  /** Its rows never sent (or left pending by a refusal of the account), by number. */
  notSent: Map<string, LoggedRow[]>;
  /** Its rows sent without an answer seen, by number. */
  maybeSent: Map<string, LoggedRow[]>;
  /** False for a journal without a rows log (made by an older trk): its rows are not known. */
  known: boolean;
}

export async function leftBehind(j: JournalSummary): Promise<LeftBehind> {
  const chunks = Journal.chunks(j.file);
  const out: LeftBehind = { confirmed: new DigestList(), notSent: new Map(), maybeSent: new Map(), known: false };
  const doneKeys = new Map<number, { done: Set<string>; pending: Set<string> }>();
  const keysOf = (c: number, outcome: ChunkOutcome) => {
    let keys = doneKeys.get(c);
    if (!keys) {
      const done = new Set([...outcome.accepted, ...outcome.already].map((i) => String(i.number).trim().toUpperCase()));
      keys = { done, pending: new Set(outcome.pending ?? []) };
      doneKeys.set(c, keys);
    }
    return keys;
  };
  const add = (to: Map<string, LoggedRow[]>, key: string, row: LoggedRow) => to.set(key, [...(to.get(key) ?? []), row]);
  try {
    for await (const row of readRowsLog(rowsLogFile(j.file))) {
      out.known = true;
      const key = row.number.toUpperCase();
      const outcome = chunks.done.get(row.chunk);
      if (outcome) {
        const keys = keysOf(row.chunk, outcome);
        if (keys.pending.has(key)) add(out.notSent, key, row);
        else if (keys.done.has(key)) out.confirmed.push(row.digest);
      } else if (chunks.sent.has(row.chunk) || chunks.doubtful) add(out.maybeSent, key, row);
      else add(out.notSent, key, row);
    }
  } catch {
    // no rows log (an older trk), or one cut short: what it holds is all that is known
  }
  return out;
}

/** An interrupted run's journal and rows log, once another run has taken its place. */
export function retireJournal(j: JournalSummary): void {
  rmSync(j.file, { force: true });
  rmSync(rowsLogFile(j.file), { force: true });
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
    retireJournal(j);
    forgotten += 1;
  }
  for (const r of listFinished(folders)) {
    if (prefix !== undefined && !r.key.startsWith(prefix)) continue;
    rmSync(path.join(folders.finished, `${r.key}.json`), { force: true });
    // What its file's runs had confirmed goes too: the file may then be sent again.
    if (r.identity.input.kind === 'file') forgetSent(sentFile(folders.sent, r.identity));
    forgotten += 1;
  }
  return { forgotten, running };
}

import { appendFileSync, chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, runKey, type RunIdentity } from '../../src/items/journal.js';
import { TrkError } from '../../src/core/errors.js';
import { processStartTime } from '../../src/items/leftovers.js';
import { tempDir } from './helpers.js';

const outcome = (n: string) => ({
  accepted: [{ number: n, carrier: 3011, origin: 1, tag: '标签' }],
  rejected: [{ number: `${n}X`, error: { code: -18019903, message: 'carrier cannot be detected' } }],
  already: [],
});

const ID: RunIdentity = {
  op: 'register',
  command: 'register',
  account: { profile: 'default', baseUrl: 'https://api.example', version: 'v2' },
  input: { kind: 'file', display: 'in.csv', name: '/data/in.csv', digest: 'd1' },
  options: {},
};

function open(dir: string, restart = false, warn: (line: string) => void = () => {}) {
  return Journal.open({ dir, identity: ID, restart, warn });
}

describe('Journal', () => {
  it('records sends and outcomes, and reads them back in a later run', () => {
    const dir = tempDir();
    const j = open(dir);
    expect(j.resumed).toBe(false);
    j.markSent(0);
    j.markDone(0, outcome('A'));
    j.markSent(1);
    j.markSent(2);
    j.markUnsent(2);
    j.close();

    const again = open(dir);
    expect(again.resumed).toBe(true);
    expect(again.isDone(0)).toBe(true);
    expect(again.outcome(0)).toEqual(outcome('A'));
    expect(again.wasSent(1)).toBe(true);
    expect(again.isDone(1)).toBe(false);
    expect(again.wasSent(2)).toBe(false);
    again.complete();
    expect(existsSync(again.file)).toBe(false);
  });

  it.skipIf(process.platform === 'win32')(
    'is made 0600 in a 0700 folder; one found open to others (and its folder) is set so, with a warning each',
    () => {
      const umask = process.umask(0);
      try {
        const dir = path.join(tempDir(), 'journals');
        const j = open(dir);
        j.markSent(0);
        j.close();
        expect([statSync(dir).mode & 0o777, statSync(j.file).mode & 0o777]).toEqual([0o700, 0o600]);
        chmodSync(j.file, 0o644);
        chmodSync(dir, 0o755);
        const lines: string[] = [];
        const again = open(dir, false, (line) => lines.push(line));
        expect([statSync(dir).mode & 0o777, statSync(j.file).mode & 0o777]).toEqual([0o700, 0o600]);
        expect(lines).toEqual([
          `warning: the journals folder ${dir} could be read by others (mode 0755), and it holds customers' data: ` +
            'set to 0700',
          `warning: the journal ${j.file} could be read by others (mode 0644), and it holds customers' data: ` +
            'set to 0600',
        ]);
        expect(again.wasSent(0)).toBe(true);
        again.close();
      } finally {
        process.umask(umask);
      }
    },
  );

  it('drops a torn last line (a kill in the middle of a write) and appends after it cleanly', () => {
    const dir = tempDir();
    const j = open(dir);
    j.markSent(0);
    j.markDone(0, outcome('A'));
    j.markSent(1);
    j.close();
    appendFileSync(j.file, '{"t":"done","c":1,"a":[{"numb');

    const again = open(dir);
    expect(again.wasSent(1)).toBe(true);
    expect(again.isDone(1)).toBe(false);
    again.markDone(1, outcome('B'));
    again.close();
    const lines = readFileSync(j.file, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { t: string }).t)).toEqual(['head', 'send', 'done', 'send', 'done']);
    expect(open(dir).outcome(1)).toEqual(outcome('B'));
  });

  it('does not believe damaged lines: every chunk without a sound done line is then taken as maybe sent', () => {
    const dir = tempDir();
    const j = open(dir);
    j.markSent(0);
    j.markDone(0, outcome('A'));
    j.markSent(1);
    j.close();
    // Garbage, a done line whose fields have the wrong types, and one with a fractional chunk number.
    appendFileSync(
      j.file,
      'garbage\n{"t":"done","c":2,"a":"x","r":[],"k":[]}\n' +
        '{"t":"done","c":3,"a":[{"number":"B"}],"r":[null],"k":[]}\n{"t":"send","c":1.5}\n',
    );
    const again = open(dir);
    expect(again.damagedAt).toBe(5);
    expect(again.isDone(0)).toBe(true);
    expect(again.outcome(0)).toEqual(outcome('A'));
    for (const c of [1, 2, 3, 4, 99]) {
      expect(again.isDone(c)).toBe(false);
      expect(again.wasSent(c)).toBe(true);
    }
    again.close();
    expect(Journal.inspect(j.file)?.doneItems).toBe(2);
  });

  it('keeps numbers an account refusal left pending with the outcome of their chunk', () => {
    const dir = tempDir();
    const j = open(dir);
    j.markSent(0);
    j.markDone(0, { ...outcome('A'), pending: ['RR3', 'RR4'] });
    j.close();
    const again = open(dir);
    expect(again.outcome(0)?.pending).toEqual(['RR3', 'RR4']);
    again.close();
  });

  it('lets one process at a time run an import, and takes over the lock of a dead one', () => {
    const dir = tempDir();
    const j = open(dir);
    // Another live process (our parent) holds it.
    writeFileSync(`${j.file}.lock`, String(process.ppid));
    expect(() => open(dir)).toThrow(TrkError);
    expect(() => open(dir)).toThrow(`another trk process (pid ${process.ppid}) is running this same import`);
    // A pid that does not exist: taken over.
    writeFileSync(`${j.file}.lock`, '999999999');
    const again = open(dir);
    again.close();
    j.close();
  });

  it('a lock whose pid now belongs to another live process (started after the lock was taken) does not block', () => {
    const dir = tempDir();
    const j = open(dir);
    j.close();
    const parentStarted = processStartTime(process.ppid);
    // The parent as the owner, with its own start time: a live owner, refused.
    writeFileSync(`${j.file}.lock`, JSON.stringify({ pid: process.ppid, started: parentStarted }));
    const refusal = `another trk process (pid ${process.ppid}) is running this same import`;
    if (parentStarted !== undefined) expect(() => open(dir)).toThrow(refusal);
    // The same pid with the start time of the process that held it before the pid was reused: taken over.
    writeFileSync(`${j.file}.lock`, JSON.stringify({ pid: process.ppid, started: 'another-process' }));
    const taken = open(dir);
    const lock = JSON.parse(readFileSync(`${j.file}.lock`, 'utf8')) as unknown;
    expect(lock).toEqual({ pid: process.pid, started: processStartTime(process.pid) ?? null });
    taken.close();
  });

  it('--restart discards the journal; inspect reads done chunks without taking it', () => {
    const dir = tempDir();
    const j = open(dir);
    j.markSent(3);
    j.markDone(3, outcome('A'));
    j.close();
    expect(Journal.inspect(j.file)?.doneChunks).toEqual(new Set([3]));
    expect(Journal.inspect(path.join(dir, 'other.jsonl'))).toBeUndefined();
    expect(Journal.list(dir).map((x) => x.identity)).toEqual([ID]);
    const fresh = open(dir, true);
    expect(fresh.isDone(3)).toBe(false);
    expect(fresh.isFresh).toBe(true);
    fresh.close();
  });

  it('keys journals by everything that makes two runs the same', () => {
    const a = runKey(ID);
    expect(runKey({ ...ID, command: 'other words' })).toBe(a);
    expect(runKey({ ...ID, input: { ...ID.input, digest: 'd2' } })).not.toBe(a);
    expect(runKey({ ...ID, op: 'stoptrack' })).not.toBe(a);
    expect(runKey({ ...ID, options: { defaults: { tag: 'x' } } })).not.toBe(a);
    expect(runKey({ ...ID, account: { ...ID.account, profile: 'shop-eu' } })).not.toBe(a);
    expect(path.basename(open(tempDir()).file)).toBe(`${a}.jsonl`);
  });
});

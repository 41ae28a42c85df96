// Which SQLite files of the mirror were found damaged (what is said of one: src/store/damaged.ts). A read meets
// damage only in the pages it reads (a check of every page costs 0.45 s per 100,000 records, and seconds at a
// million: too much for reads that answer in milliseconds); so a file found damaged, by a read or by a sync's daily
// check (sync.ts), is remembered in the state folder, and every later command refuses it, whatever pages it would
// read, until another file takes its place or the file changes and a check finds it whole.

import path from 'node:path';
import { nodeFs } from '../core/node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { mkdirSync, readFileSync, statSync, writeFileSync } = nodeFs();

interface Remembered {
  /** The file as it was when found damaged: device, inode, size, modification time. */
  file: string;
  detail: string;
}

/** What is known of a file: nothing, damage in it as it is, or damage in it before it changed. */
export type KnownDamage = { state: 'none' } | { state: 'damaged'; detail: string } | { state: 'changed' };

/** The SQLite files found damaged, in one file of the state folder (several trk may write it; the last one wins). */
export class DamagedFiles {
  readonly #list: string;

  constructor(stateDir: string) {
    this.#list = path.join(stateDir, 'damaged-mirrors.json');
  }

  recall(file: string): KnownDamage {
    const known = this.#read()[file];
    if (known === undefined) return { state: 'none' };
    return known.file === identity(file) ? { state: 'damaged', detail: known.detail } : { state: 'changed' };
  }

  remember(file: string, detail: string): void {
    this.#write({ ...this.#read(), [file]: { file: identity(file), detail } });
  }

  forget(file: string): void {
    const all = this.#read();
    if (!(file in all)) return;
    delete all[file];
    this.#write(all);
  }

  #read(): Record<string, Remembered> {
    try {
      return JSON.parse(readFileSync(this.#list, 'utf8')) as Record<string, Remembered>;
    } catch {
      return {};
    }
  }

  #write(all: Record<string, Remembered>): void {
    try {
      mkdirSync(path.dirname(this.#list), { recursive: true, mode: 0o700 });
      writeFileSync(this.#list, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    } catch {
      // A state folder that cannot be written (a read-only home): this command refuses the file all the same.
    }
  }
}

/** What tells this file from another at its path, or from itself changed: a copy over it changes its time. */
function identity(file: string): string {
  try {
    const s = statSync(file);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return '';
  }
}

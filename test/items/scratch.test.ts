import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineHashes } from '../../src/items/digest.js';
import { RepeatFinder } from '../../src/items/repeats.js';
import { scratchDir } from '../../src/items/scratch.js';
import { tempDir } from './helpers.js';

describe('scratch folders of the checking pass', () => {
  it('are made in a spool folder that does not exist yet (a file input never made it)', () => {
    const spool = path.join(tempDir(), 'state', 'spool');
    const finder = new RepeatFinder({ dir: spool });
    for (let line = 1; line <= 200_000; line++) finder.add(line, `N${line}`, `N${line}/3011`, 'same', 1);
    const hashes = new LineHashes(spool);
    for (let line = 1; line <= 400_000; line++) hashes.set(line, line);
    expect(readdirSync(spool).sort()).toEqual([
      expect.stringMatching(`^trk-lines-${process.pid}-`),
      expect.stringMatching(`^trk-rows-${process.pid}-`),
    ]);
    expect(finder.finish().decision(200_000)).toBe('keep');
    expect(hashes.get(299_999)).toBe(299_999); // a block on disk
    hashes.dispose();
    expect(readdirSync(spool)).toEqual([]);
  });

  it("remove those of runs that are gone, not a running one's", () => {
    const spool = tempDir();
    const gone = 'trk-rows-4194303-aaaaaa'; // above Linux's largest process id
    const running = `trk-lines-${process.ppid}-bbbbbb`;
    for (const name of [gone, running]) {
      mkdirSync(path.join(spool, name));
      writeFileSync(path.join(spool, name, '0.bin'), 'x');
    }
    const made = path.basename(scratchDir(spool, 'rows'));
    expect(readdirSync(spool).sort()).toEqual([made, running].sort());
  });

  it('name the folder they cannot be made in, and what to do', () => {
    const file = path.join(tempDir(), 'not-a-folder');
    writeFileSync(file, '');
    expect(() => scratchDir(path.join(file, 'spool'), 'lines')).toThrow(
      new RegExp(`^cannot keep the checking pass's temporary files in ${file}/spool: a file is in the way`),
    );
  });
});

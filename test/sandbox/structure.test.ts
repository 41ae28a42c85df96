// The emulator's boundary: product code outside src/sandbox/ reaches it through src/sandbox/index.ts only, and
// only by dynamic import (or type-only import), so that start-up never loads the emulator.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const outside = sourceFiles(SRC).filter((f) => !f.startsWith(path.join(SRC, 'sandbox') + path.sep));

describe('the emulator boundary', () => {
  it('is crossed through src/sandbox/index.ts only', () => {
    const offending: string[] = [];
    for (const file of outside) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\(\s*)['"]([^'"]*\/sandbox\/[^'"]*)['"]/g)) {
        if (!m[1]!.endsWith('/sandbox/index.js')) offending.push(`${path.relative(SRC, file)}: ${m[1]}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('is never crossed by a static value import', () => {
    const offending: string[] = [];
    for (const file of outside) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import\s+(?!type\b)[^;]*from\s+['"][^'"]*\/sandbox\/[^'"]*['"]/gm)) {
        offending.push(`${path.relative(SRC, file)}: ${m[0]}`);
      }
    }
    expect(offending).toEqual([]);
  });
});

// The boundaries of the code, as ARCHITECTURE.md draws them, held by reading every import of src/:
//   - layers: commands → items → api, never back (and the lower modules never reach up into either);
//   - api talks to the service and leaves rendering (output) and settings (config) to its callers, which pass it
//     numbers and callbacks; the rate budget (pacing) is below api, and takes only the service's vocabulary from it;
//   - a command reaches the item engine through its entry points only, never its chunking or CSV reading;
//   - product code reaches the emulator through src/sandbox/index.ts only, lazily (or for types), so start-up
//     never loads it;
//   - the service's model (src/service/: vocabulary, codes, records) imports nothing else of trk, and it is all the
//     emulator takes of the product.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

interface Import {
  /** The importing file, relative to src/ (`commands/items/register.ts`). */
  from: string;
  /** The imported module, relative to src/ (`items/command.ts`), or a package name. */
  to: string;
  kind: 'static' | 'type' | 'dynamic';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT = /(?:^|\n)\s*import\s+(type\s+)?[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*export\s+(type\s+)?[^'";]*?from\s*['"]([^'"]+)['"]/g;

function importsOf(file: string, text: string): Import[] {
  const from = path.relative(SRC, file);
  const out: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[2] ?? m[3] ?? m[5] ?? '';
    const kind = m[3] !== undefined ? 'dynamic' : m[1] !== undefined || m[4] !== undefined ? 'type' : 'static';
    const to = spec.startsWith('.') ? path.relative(SRC, path.resolve(path.dirname(file), spec)).replace(/\.js$/, '.ts') : spec;
    out.push({ from, to, kind });
  }
  return out;
}

const IMPORTS = sourceFiles(SRC).flatMap((f) => importsOf(f, readFileSync(f, 'utf8')));
const top = (p: string) => p.split(path.sep)[0] ?? '';
/** A module of src/ (relative to it), not a package or one of Node's. */
const isProduct = (p: string) => !p.startsWith('node:') && !path.isAbsolute(p) && /\.ts$/.test(p);
const show = (i: Import) => `${i.from} → ${i.to} (${i.kind})`;

describe('architecture', () => {
  it('reads the imports it checks', () => {
    expect(IMPORTS.length).toBeGreaterThan(300);
    expect(IMPORTS).toContainEqual({ from: path.join('commands', 'items', 'register.ts'), to: path.join('items', 'command.ts'), kind: 'dynamic' });
  });

  it('layers: commands → items → api, never back', () => {
    const below: Record<string, readonly string[]> = {
      items: ['commands'],
      api: ['commands', 'items', 'output', 'config'],
      pacing: ['commands', 'items', 'output', 'config'],
      output: ['commands', 'items'],
      config: ['commands', 'items'],
      carriers: ['commands', 'items'],
      webhook: ['commands', 'items'],
      store: ['commands', 'items'],
      report: ['commands', 'items'],
      sandbox: ['commands', 'items', 'output'],
    };
    const upward = IMPORTS.filter((i) => below[top(i.from)]?.includes(top(i.to)));
    expect(upward.map(show)).toEqual([]);
  });

  it('pacing is below api, and takes nothing of it: the service\'s vocabulary comes from service/', () => {
    const used = IMPORTS.filter((i) => top(i.from) === 'pacing' && top(i.to) === 'api');
    expect(IMPORTS.some((i) => top(i.from) === 'pacing' && top(i.to) === 'service')).toBe(true);
    expect(used.map(show)).toEqual([]);
  });

  it('service imports nothing of trk', () => {
    const outside = IMPORTS.filter((i) => top(i.from) === 'service' && (i.to.startsWith('.') || isProduct(i.to)) && top(i.to) !== 'service');
    expect(IMPORTS.filter((i) => top(i.from) === 'service').length).toBeGreaterThan(2);
    expect(outside.map(show)).toEqual([]);
  });

  it('the sandbox imports only service/ of the product (and its own index)', () => {
    // Files at the top of src/ that are no layer (the typed errors, the package's own files) are shared by all.
    const SHARED = ['errors.ts', 'exit-codes.ts', 'package-files.ts', 'node.ts'];
    const wrong = IMPORTS.filter(
      (i) => top(i.from) === 'sandbox' && isProduct(i.to) && !['sandbox', 'service'].includes(top(i.to)) && !SHARED.includes(i.to),
    );
    expect(IMPORTS.some((i) => top(i.from) === 'sandbox' && top(i.to) === 'service')).toBe(true);
    expect(wrong.map(show)).toEqual([]);
  });

  it('commands reach the item engine through its entry points, never its chunking or input reading', () => {
    const ENTRY_POINTS = ['command.ts', 'run.ts', 'runs.ts', 'check.ts'].map((f) => path.join('items', f));
    const direct = IMPORTS.filter(
      (i) =>
        top(i.from) === 'commands' &&
        ((top(i.to) === 'items' && !ENTRY_POINTS.includes(i.to)) ||
          // A type of the engine's checks is fine; its code is the engine's.
          (i.to === path.join('items', 'check.ts') && i.kind !== 'type') ||
          /^csv-(parse|stringify)/.test(i.to)),
    );
    expect(direct.map(show)).toEqual([]);
  });

  it("the emulator routes and signs with its own code, and carriers never reach into it", () => {
    // The emulator may share the service's vocabulary (service/vocabulary.ts, service/codes.ts), never the product's
    // reading of it: its operation table, its webhook signing, its carrier lists.
    const sandboxReadsProduct = (i: Import) =>
      top(i.from) === 'sandbox' && (top(i.to) === 'api' || path.dirname(i.to) === path.join('service', 'operations') || ['webhook', 'carriers'].includes(top(i.to)));
    const carriersReachIn = (i: Import) => top(i.from) === 'carriers' && top(i.to) === 'sandbox';
    const wrong = IMPORTS.filter((i) => sandboxReadsProduct(i) || carriersReachIn(i));
    expect(wrong.map(show)).toEqual([]);
  });

  it('product code reaches the emulator through src/sandbox/index.ts only, and never at start-up', () => {
    const crossing = IMPORTS.filter((i) => top(i.from) !== 'sandbox' && top(i.to) === 'sandbox');
    expect(crossing.length).toBeGreaterThan(0);
    const wrong = crossing.filter((i) => i.to !== path.join('sandbox', 'index.ts') || i.kind === 'static');
    expect(wrong.map(show)).toEqual([]);
  });

  it('the webhook listener: reached through webhook/listen.ts, its parts never reach up to what assembles them', () => {
    const LISTENER = path.join('webhook', 'listener');
    const inside = (p: string) => p.startsWith(LISTENER + path.sep);
    const ASSEMBLY = ['lifecycle.ts', 'pipeline.ts'].map((f) => path.join(LISTENER, f));
    const wrong = IMPORTS.filter(
      (i) =>
        (inside(i.to) && top(i.from) !== 'webhook') ||
        (inside(i.from) && ASSEMBLY.includes(i.to) && i.from !== ASSEMBLY[0]) ||
        (top(i.from) === 'webhook' && top(i.to) === 'sandbox'),
    );
    expect(IMPORTS.some((i) => i.from === ASSEMBLY[0] && i.to === ASSEMBLY[1])).toBe(true);
    expect(wrong.map(show)).toEqual([]);
  });

  it('would catch a violation (the checks themselves work)', () => {
    const file = path.join(SRC, 'items', 'x.ts');
    const bad = importsOf(file, "import { runList } from '../commands/list/list.js';\nconst s = await import('../sandbox/http/server.js');\nimport type { A } from './chunker.js';");
    expect(bad).toEqual([
      { from: path.join('items', 'x.ts'), to: path.join('commands', 'list', 'list.ts'), kind: 'static' },
      { from: path.join('items', 'x.ts'), to: path.join('sandbox', 'http', 'server.ts'), kind: 'dynamic' },
      { from: path.join('items', 'x.ts'), to: path.join('items', 'chunker.ts'), kind: 'type' },
    ]);
  });
});

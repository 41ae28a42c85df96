// The repository stands on its own: no source, test, benchmark, script or document names a path outside it
// (a folder beside the project on a developer's machine, or an absolute path of one), since a user's clone has
// nothing beside it. Fixtures under test/fixtures/ are recorded data and are not scanned.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCANNED_DIRS = ['src', 'packages', 'test', 'bench', 'bin', 'examples', 'completions', '.ci'];
const SKIPPED = new Set(['node_modules', 'dist', '.git', path.join('test', 'fixtures')]);
const TEXT = /\.(?:[cm]?[jt]s|json|md|sh|txt|csv|ya?ml|bash|zsh|fish)$|^[^.]+$/;

/** A relative path with at least one parent step, as in an import, a link or a resolve call. */
const RELATIVE_UP = /(?:\.\.\/)+(?:\.\.(?![\w/])|[\w.-]+(?:\/[\w.-]+)*)/g;
/** Folders that live beside the project on developers' machines, and the absolute workspace path. */
const OUTSIDE_NAMES = new RegExp(
  ['(?:^|[^\\w])' + 'shared' + '/(?:spec|fixtures|reference|docs|hooks)\\b', '(?:^|[\\s\'"`(])/' + 'work' + '/'].join(
    '|',
  ),
);

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (SKIPPED.has(entry.name) || SKIPPED.has(rel)) continue;
    if (entry.isDirectory()) filesUnder(rel, out);
    else if (TEXT.test(entry.name)) out.push(rel);
  }
  return out;
}

function scannedFiles(): string[] {
  const top = readdirSync(ROOT, { withFileTypes: true })
    .filter(
      (e) =>
        e.isFile() && (/\.md$/.test(e.name) || ['package.json', 'tsconfig.json', 'vitest.config.ts'].includes(e.name)),
    )
    .map((e) => e.name);
  return [...top, ...SCANNED_DIRS.filter((d) => exists(d)).flatMap((d) => filesUnder(d))];
}

function exists(dir: string): boolean {
  try {
    readdirSync(path.join(ROOT, dir));
    return true;
  } catch {
    return false;
  }
}

/** Every mention in `text` (a file at `rel`) of a path outside the repository, as `line: text`. */
function outsideMentions(rel: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (OUTSIDE_NAMES.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
    for (const m of line.matchAll(RELATIVE_UP)) {
      const target = path.resolve(ROOT, path.dirname(rel), m[0]);
      if (path.relative(ROOT, target).startsWith('..')) found.push(`${rel}:${i + 1}: ${m[0]}`);
    }
  });
  return found;
}

describe('the repository is self-contained', () => {
  it('finds the files it guards', () => {
    const files = scannedFiles();
    expect(files).toContain('README.md');
    expect(files).toContain(path.join('src', 'cli.ts'));
    expect(files).toContain(path.join('test', 'fixture-files.ts'));
    expect(files.some((f) => f.startsWith(`test${path.sep}fixtures${path.sep}`))).toBe(false);
  });

  it('no file names a path outside the repository', () => {
    const mentions = scannedFiles().flatMap((f) => outsideMentions(f, readFileSync(path.join(ROOT, f), 'utf8')));
    expect(mentions).toEqual([]);
  });

  it('catches a sibling folder, a parent walk out of the tree and an absolute workspace path', () => {
    const sibling = ['..', 'shared', 'fixtures', 'x.json'].join('/');
    expect(outsideMentions('test/a.test.ts', `readFileSync('${sibling}')`)).toHaveLength(1);
    expect(
      outsideMentions('test/sandbox/a.test.ts', `path.resolve(here, '${['..', '..', '..', 'x'].join('/')}')`),
    ).toHaveLength(1);
    expect(
      outsideMentions('src/sandbox/README.md', `see ${['..', '..', '..', 'elsewhere', 'spec.md'].join('/')}`),
    ).toHaveLength(1);
    expect(outsideMentions('bench/x.mjs', `const p = '/${'work'}/main/x'`)).toHaveLength(1);
    expect(
      outsideMentions(
        'test/sandbox/world/a.test.ts',
        `import x from '${['..', '..', '..', 'src', 'api', 'spec.js'].join('/')}'`,
      ),
    ).toEqual([]);
  });
});

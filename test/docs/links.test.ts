// Every relative link and #anchor of README.md, docs/*.md and ARCHITECTURE.md leads somewhere: the file exists and
// the anchor is a heading of it, as GitHub names headings' anchors.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../e2e/helpers.js';
import { markdownFiles } from './examples.js';

/** The text outside fenced blocks. */
function withoutFences(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
}

/** The text outside fenced blocks and inline code: links there are links. */
function prose(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2... */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  for (const [, heading] of withoutFences(text).matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    let name = slug;
    for (let n = 1; out.has(name); n++) name = `${slug}-${n}`;
    out.add(name);
  }
  return out;
}

/** Links of the Markdown text that stay in the repository: [text](target), ![alt](target). */
function relativeLinks(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('links of the documentation', () => {
  const files = markdownFiles(ROOT);

  it('finds the pages and their links', () => {
    expect(files.length).toBeGreaterThan(8);
    expect(relativeLinks(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
  });

  it.each(files)('%s: every relative link and #anchor resolves', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const broken: string[] = [];
    for (const link of relativeLinks(text)) {
      const [target, anchor] = link.split('#') as [string, string | undefined];
      const resolved = target === '' ? path.join(ROOT, file) : path.resolve(ROOT, path.dirname(file), target);
      if (!existsSync(resolved)) broken.push(`${link}: no file ${path.relative(ROOT, resolved)}`);
      else if (
        anchor !== undefined &&
        resolved.endsWith('.md') &&
        !anchors(readFileSync(resolved, 'utf8')).has(anchor)
      ) {
        broken.push(`${link}: no heading #${anchor} in ${path.relative(ROOT, resolved)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names anchors as GitHub does', () => {
    expect([...anchors('## The mirror on PostgreSQL, for several hosts\n## `list`\n## A b\n## A b\n')]).toEqual([
      'the-mirror-on-postgresql-for-several-hosts',
      'list',
      'a-b',
      'a-b-1',
    ]);
  });
});

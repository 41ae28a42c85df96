// The shell examples of the documentation, as a reader meets them: the fenced blocks of README.md, docs/*.md and
// ARCHITECTURE.md, and the "Examples:" of every help page as `trk help X` prints them (lib/help-pages.json, which
// the build writes). A block that cannot run as it is says so in the Markdown, on the line before its fence:
//
//   <!-- not run: REASON -->          the block is listed as skipped, with its reason
//   <!-- exit: 0, 3 -->               the exit codes each line of the block may end with (default 0)
//   <!-- runs until stopped -->       servers and watches: started, stopped with Ctrl-C once they have printed
//
// Help pages cannot carry such comments: their exceptions are listed in test/docs/help-examples.ts.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One command line of an example, continuation lines joined. */
export interface Example {
  /** Where it is: `README.md:123` or `trk help list`. */
  where: string;
  /** The file (README.md, docs/x.md) or help page it comes from: the examples of one source run in turn. */
  source: string;
  line: string;
  /** Why it is not run; undefined when it runs. */
  skip?: string;
  /** Exit codes it may end with. */
  exits: number[];
  /** A server or a watch: stopped with Ctrl-C (SIGINT) once it has printed something. */
  untilStopped?: boolean;
}

/** How a server or a watch stopped with Ctrl-C ends: 130, or 0 when it sums up and exits cleanly. */
export const STOPPED_EXITS = [0, 130];

/** Fences whose lines are commands. A block of another kind (json, text) is not an example. */
const SHELL_FENCES = new Set(['sh', 'bash', 'shell', 'zsh', 'cron', 'crontab', 'powershell']);
const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/;
const EXITS = /^<!--\s*exit:\s*([\d,\s]+?)\s*-->$/;
const UNTIL_STOPPED = /^<!--\s*runs until stopped\s*-->$/;

/** The Markdown files whose examples run: README.md, docs/*.md, ARCHITECTURE.md. */
export function markdownFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs, 'ARCHITECTURE.md'];
}

/** Lines of commands: blank and comment lines dropped, lines ending in a backslash joined with the next. */
export function commandLines(block: readonly string[]): { offset: number; line: string }[] {
  const out: { offset: number; line: string }[] = [];
  let pending: { offset: number; line: string } | undefined;
  block.forEach((raw, offset) => {
    const text = raw.trim();
    if (pending === undefined && (text === '' || text.startsWith('#'))) return;
    const joined = pending ? `${pending.line} ${text}` : text;
    const start = pending?.offset ?? offset;
    if (joined.endsWith('\\')) {
      pending = { offset: start, line: joined.slice(0, -1).trimEnd() };
      return;
    }
    pending = undefined;
    out.push({ offset: start, line: joined });
  });
  if (pending) out.push(pending);
  return out;
}

/** The examples of one Markdown file's text. A shell block of a kind that is not sh must say why it does not run. */
export function markdownExamples(file: string, text: string): Example[] {
  const lines = text.split('\n');
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\S*)/.exec(lines[i]!);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 1}: a fence that is never closed`);
    const kind = fence[1]!;
    const marker = lastNonBlank(lines, i);
    if (SHELL_FENCES.has(kind)) {
      const skip = NOT_RUN.exec(marker)?.[1];
      if (skip === undefined && kind !== 'sh' && kind !== 'bash' && kind !== 'shell') {
        throw new Error(`${file}:${i + 1}: a ${kind} block runs only as sh: mark it <!-- not run: why -->`);
      }
      const untilStopped = UNTIL_STOPPED.test(marker);
      const exits = untilStopped
        ? STOPPED_EXITS
        : (EXITS.exec(marker)?.[1]
            ?.split(',')
            .map((c) => Number(c.trim())) ?? [0]);
      for (const { offset, line } of commandLines(lines.slice(i + 1, end))) {
        examples.push({ where: `${file}:${i + 2 + offset}`, source: file, line, skip, exits, untilStopped });
      }
    }
    i = end;
  }
  return examples;
}

function lastNonBlank(lines: readonly string[], before: number): string {
  for (let j = before - 1; j >= 0; j--) if (lines[j]!.trim() !== '') return lines[j]!.trim();
  return '';
}

/** The lines under "Examples:" of a help page, as printed (two spaces in, continuation lines joined). */
export function helpPageExamples(page: string): string[] {
  const at = page.indexOf('\nExamples:\n');
  if (at < 0) return [];
  const block: string[] = [];
  for (const line of page.slice(at + '\nExamples:\n'.length).split('\n')) {
    if (!line.startsWith('  ')) break;
    block.push(line);
  }
  return commandLines(block).map((c) => c.line);
}

/** Every help page's examples, each once (a noun's page repeats its subcommands'), by the page that shows it first. */
export function helpExamples(root: string): { page: string; line: string }[] {
  const pages = JSON.parse(readFileSync(path.join(root, 'lib', 'help-pages.json'), 'utf8')) as Record<string, string>;
  const seen = new Set<string>();
  const out: { page: string; line: string }[] = [];
  for (const [args, page] of Object.entries(pages)) {
    if (!args.startsWith('help ')) continue;
    for (const line of helpPageExamples(page)) {
      if (seen.has(line)) continue;
      seen.add(line);
      out.push({ page: `trk ${args}`, line });
    }
  }
  return out;
}

/** One trk command of a line: its arguments, and the files its stdin comes from and its stdout goes to. */
export interface TrkCommand {
  args: string[];
  from?: string;
  to?: string;
  /** Its stdout is the next command's stdin (`|`), not the line's. */
  piped?: boolean;
}

/**
 * The trk commands of a line that needs no shell but for what joins them: words plain or quoted (no expansion
 * in them), `< file` and `> file`, commands joined by `|` and `&&`, a trailing comment. Undefined for anything
 * else (a variable, a glob, a loop, another program), which bash runs.
 */
export function trkCommands(line: string): TrkCommand[] | undefined {
  const commands: { words: string[]; piped: boolean }[] = [{ words: [], piped: false }];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) commands.at(-1)!.words.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') end();
    else if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      const quoted = line.slice(i + 1, close);
      if (close < 0 || (c === '"' && /[$`\\!]/.test(quoted))) return undefined;
      word = (word ?? '') + quoted;
      i = close;
    } else if (c === '#' && word === undefined) break;
    else if (c === '&' && word === undefined && line[i + 1] === '&') {
      commands.push({ words: [], piped: false });
      i++;
    } else if (c === '|' && word === undefined && line[i + 1] !== '|') {
      commands.at(-1)!.piped = true;
      commands.push({ words: [], piped: false });
    } else if ((c === '<' || c === '>') && word === undefined && line[i + 1] !== c) commands.at(-1)!.words.push(c);
    else if (/[|;&()$`\\*?[\]{}<>!]/.test(c) || (c === '~' && word === undefined)) return undefined;
    else word = (word ?? '') + c;
  }
  end();
  const out: TrkCommand[] = [];
  for (const { words, piped } of commands) {
    if (words[0] !== 'trk') return undefined;
    const command: TrkCommand = { args: [], ...(piped ? { piped } : {}) };
    for (let i = 1; i < words.length; i++) {
      const w = words[i]!;
      if (w !== '<' && w !== '>') command.args.push(w);
      else if (words[i + 1] === undefined || words[i + 1] === '<' || words[i + 1] === '>') return undefined;
      else command[w === '<' ? 'from' : 'to'] = words[++i];
    }
    out.push(command);
  }
  return out;
}

// How help pages are laid out: for the terminal's width (at most HELP_WIDTH), as clap and git do. A term and its
// description sit side by side when the description keeps MIN_BESIDE columns; narrower, the description goes
// under its term. Examples too long for the width break at a space into shell continuation lines (` \`), a
// trailing comment going above its command, a quoted program (jq's) inside its quotes, so that each still runs
// when pasted. Examples come right under the description, before the arguments and options (kubectl's order), so
// that the first screen of a long page shows how the command is used. A command's page shows its
// own options and examples; the options every command takes are named in one line pointing to `trk help
// options` (as `kubectl options`), and the program's page names them the same way.

import type { EventEmitter } from 'node:events';
import type { AddHelpTextContext, Command, Help, HelpConfiguration, Option } from '@commander-js/extra-typings';
import { HELP_WIDTH } from '../help-pages.js';

/** Fewer columns than this for descriptions beside their terms, and they go under them. */
const MIN_BESIDE = 36;
const INDENT = '  ';
/** Where a description under its term starts. */
const UNDER = '      ';
/** A continuation line of an example. */
const CONTINUED = '      ';

type HelpText = (context: AddHelpTextContext) => string;

/**
 * The width a page is laid out for: its output's, which cli.ts sets from the terminal (at most HELP_WIDTH);
 * HELP_WIDTH when none is set. Man pages (write-man-pages.ts) set no limit: roff lays their text out.
 */
export function pageWidth(context: AddHelpTextContext): number {
  const out = context.command.configureOutput();
  const width = context.error ? out.getErrHelpWidth?.() : out.getOutHelpWidth?.();
  return width ?? HELP_WIDTH;
}

/** Words of `text` in lines of at most `width` columns (a longer word has a line of its own); newlines kept. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** A term and its description: side by side when the description keeps MIN_BESIDE columns, else under it. */
export function layoutItem(term: string, termWidth: number, description: string, width: number): string {
  if (!description) return `${INDENT}${term}`;
  const beside = width - INDENT.length - termWidth - 2;
  if (beside >= MIN_BESIDE) {
    const [first, ...rest] = wrapWords(description, beside);
    const pad = ' '.repeat(INDENT.length + termWidth + 2);
    return [`${INDENT}${term.padEnd(termWidth)}  ${first}`, ...rest.map((l) => `${pad}${l}`)].join('\n');
  }
  return [`${INDENT}${term}`, ...wrapWords(description, width - UNDER.length).map((l) => `${UNDER}${l}`)].join('\n');
}

/** Rows of terms and descriptions laid out together (the widest term sets the column). */
export function layoutItems(rows: readonly (readonly [string, string])[], width: number): string {
  const termWidth = Math.max(0, ...rows.map(([term]) => term.length));
  return rows.map(([term, description]) => layoutItem(term, termWidth, description, width)).join('\n');
}

/** A shell command line's words, quoted parts kept whole (`jq -c '{a: .b}'` is three words). */
function shellWords(line: string): string[] {
  return line.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g) ?? [];
}

/**
 * A single-quoted word too long for a line, broken at its spaces: the line breaks are inside the quotes, so the
 * program it quotes (jq's, which takes any white space) reads the same, and no ` \` is needed.
 */
function quotedLines(word: string, first: number, rest: number): string[] {
  const lines = wrapWords(word, first);
  if (lines.length === 1) return lines;
  return [lines[0] as string, ...wrapWords(lines.slice(1).join(' '), rest)];
}

/** One example, as lines that fit `width` where a word allows (see the top of this file). */
export function exampleLines(example: string, width: number): string[] {
  if (INDENT.length + example.length <= width) return [`${INDENT}${example}`];
  const comment = /^(.*?\S)\s{2,}(#.*)$/.exec(example);
  if (comment) {
    const above = wrapWords(comment[2]!.replace(/^#\s*/, ''), width - INDENT.length - 2).map((l) => `${INDENT}# ${l}`);
    return [...above, ...exampleLines(comment[1]!, width)];
  }
  const lines: string[] = [];
  let line = INDENT;
  for (const word of shellWords(example)) {
    const start = line === INDENT || line === CONTINUED;
    // Room for ` \` at the end of a line that is continued.
    if (!start && line.length + 1 + word.length + 2 > width) {
      lines.push(`${line} \\`);
      line = CONTINUED;
    }
    const fresh = line === INDENT || line === CONTINUED;
    if (word.startsWith("'") && line.length + 1 + word.length > width) {
      const [head, ...tail] = quotedLines(word, width - line.length - (fresh ? 0 : 1), width - CONTINUED.length);
      lines.push(fresh ? `${line}${head}` : `${line} ${head}`, ...tail.slice(0, -1).map((l) => `${CONTINUED}${l}`));
      line = `${CONTINUED}${tail.at(-1)}`;
      continue;
    }
    line = fresh ? `${line}${word}` : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/**
 * Which of a command's texts given to addHelpText('after') are asked for: its examples (placed under the
 * description by formatHelp) or the rest (notes, printed after the options). Commands declare both with one
 * addHelpText, so one reading of them (examplesOf) takes the examples and commander's own takes the rest.
 */
let asked: 'examples' | 'rest' = 'rest';

/** What a command's texts given to addHelpText('after') say of one part: its examples, or the rest (notes). */
export function afterHelpText(cmd: Command, part: 'examples' | 'rest'): string {
  let text = '';
  asked = part;
  try {
    (cmd as unknown as EventEmitter).emit('afterHelp', {
      error: false,
      command: cmd,
      write: (s: string) => {
        text += s;
      },
    });
  } finally {
    asked = 'rest';
  }
  return text;
}

/** A command's examples as its page shows them (`Examples:` and the lines), '' when it has none. */
export function examplesOf(cmd: Command): string {
  return afterHelpText(cmd, 'examples').trim();
}

/** Examples of a command's help, laid out for the page's width (placed under the description: examplesOf). */
export function examples(...lines: string[]): HelpText {
  return (context) =>
    asked === 'examples' ? `Examples:\n${lines.flatMap((l) => exampleLines(l, pageWidth(context))).join('\n')}` : '';
}

/** Paragraphs of prose after a command's options, wrapped to the page's width. */
export function notes(...paragraphs: string[]): HelpText {
  return (context) =>
    asked === 'rest' ? `\n${paragraphs.flatMap((p) => wrapWords(p, pageWidth(context))).join('\n')}` : '';
}

/** Several help texts after one another (those with nothing to say left out). */
export function joined(...texts: HelpText[]): HelpText {
  return (context) =>
    texts
      .map((t) => t(context))
      .filter(Boolean)
      .join('\n');
}

/** A page with the command's examples under its description (the first paragraph after the usage line). */
function withExamples(page: string, cmd: Command): string {
  const shown = examplesOf(cmd);
  if (!shown) return page;
  const paragraphs = page.split('\n\n');
  const at = cmd.description() ? 2 : 1;
  return [...paragraphs.slice(0, at), shown, ...paragraphs.slice(at)].join('\n\n');
}

/** `-o, --output` → `-o/--output`: how the line of global options names each. */
function flagNames(option: Option): string {
  return [option.short, option.long].filter(Boolean).join('/');
}

/** The options of the program, which every command takes. */
function globalOptionsOf(command: Command): Option[] {
  let root: Command = command;
  while (root.parent) root = root.parent as Command;
  return (root.options as Option[]).filter((o) => !o.hidden);
}

/** The line after every page naming the options every command takes, and where they are explained. */
export const globalOptionsLine: HelpText = (context) => {
  const root = context.command.parent === null;
  // --version is about trk, not about a command: named on trk's own page only.
  const names = globalOptionsOf(context.command)
    .filter((o) => root || o.long !== '--version')
    .map(flagNames);
  if (root) names.push('-h/--help');
  const text = `Global options: ${names.join(', ')} (see "trk help options").`;
  return `\n${wrapWords(text, pageWidth(context)).join('\n')}`;
};

/** `trk help options`: each option every command takes, with what it does. */
export function globalOptionsPage(program: Command, width: number): string {
  const help = program.createHelp() as Help;
  const rows = globalOptionsOf(program).map((o) => [help.optionTerm(o), help.optionDescription(o)] as const);
  return `Global options, taken by every command:\n\n${layoutItems(rows, width)}\n`;
}

/**
 * commander's Help, configured: items laid out as above; choices without quotes (they are words to type, and
 * quotes double the width of a long list); the program's own options (the global ones) named in the line of
 * globalOptionsLine instead of listed on every page.
 */
export const HELP_CONFIGURATION: HelpConfiguration = {
  sortSubcommands: false,
  showGlobalOptions: false,
  formatItem(term, termWidth, description) {
    return layoutItem(term, termWidth, description, this.helpWidth ?? HELP_WIDTH);
  },
  formatHelp(cmd, helper) {
    const base = Object.getPrototypeOf(this).formatHelp as Help['formatHelp'];
    if (cmd.parent !== null) return withExamples(base.call(this, cmd, helper), cmd as Command);
    // trk's own options are the global ones: named in a line instead (still offered by "did you mean").
    const withoutOptions = Object.create(helper, { visibleOptions: { value: () => [] } }) as Help;
    return withExamples(base.call(withoutOptions, cmd, withoutOptions), cmd as Command);
  },
  optionDescription(option) {
    const described = Object.getPrototypeOf(this).optionDescription.call(this, option) as string;
    return unquoteChoices(described, option.argChoices);
  },
  argumentDescription(argument) {
    const described = Object.getPrototypeOf(this).argumentDescription.call(this, argument) as string;
    return unquoteChoices(described, argument.argChoices);
  },
};

/** `(choices: "a", "b")` → `(choices: a, b)`. */
function unquoteChoices(text: string, choices: readonly string[] | undefined): string {
  if (!choices?.length) return text;
  const quoted = choices.map((c) => JSON.stringify(c)).join(', ');
  return text.replace(`choices: ${quoted}`, `choices: ${choices.join(', ')}`);
}

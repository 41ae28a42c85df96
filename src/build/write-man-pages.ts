// Build step (`npm run build`): a man page for trk and for each of its commands (`trk.1`, `trk-register.1`,
// `trk-auth-login.1`, ...) into man/man1/, from the command tree, as completions/ is: what `trk help` says, in roff.
// Section 1 in a folder of its own is the layout man reads, so that `man -M ./man trk-sync` and `MANPATH=./man`
// work from a checkout. package.json ships them (`files`, and `man` lists each, written here: a new command's page
// is listed by the build, never by hand; `npm install -g` links them into the prefix's share/man/man1/); a test
// fails when the committed pages or the list are stale.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command, Help } from 'commander';
import { afterHelpText, examplesOf } from '../commands/help-layout.js';
import { HELP_TOPIC_DESCRIPTIONS } from '../commands/help/help.js';
import { buildProgram, GETTING_STARTED } from '../commands/registry.js';
import { EXIT_CODE_HELP } from '../core/exit-codes.js';
import { packageFile } from '../package-files.js';

/** The folder man is pointed at (`man -M`, MANPATH), and the one of section 1 within it, where the pages are. */
export const MAN_ROOT = 'man';
export const MAN_DIR = `${MAN_ROOT}/man1`;

/** Text for roff: backslashes and hyphens escaped, a line that would start a request made plain text. */
function esc(text: string): string {
  return (
    text
      .replace(/\\/g, '\\e')
      .replace(/-/g, '\\-')
      .replace(/^([.'])/gm, '\\&$1')
      // Anything past ASCII as roff's Unicode escape (→ as \[u2192]): groff reads its input as Latin-1.
      .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)
  );
}

/** `-f, --file <file>` → the flags bold, the value's name italic. */
function term(text: string): string {
  return text
    .split(' ')
    .map((word) => {
      const comma = word.endsWith(',') ? ',' : '';
      const bare = comma ? word.slice(0, -1) : word;
      if (bare.startsWith('-')) return `\\fB${esc(bare)}\\fR${comma}`;
      if (/^[<[].*[>\]]$/.test(bare)) return `\\fI${esc(bare)}\\fR${comma}`;
      return esc(word);
    })
    .join(' ');
}

const item = (head: string, body: string) => `.TP\n${head}\n${esc(body)}`;

/** `trk auth login` → `trk-auth-login`. */
function pageName(path: readonly string[]): string {
  return ['trk', ...path].join('-');
}

function commandPath(cmd: Command): string[] {
  const path: string[] = [];
  for (let at: Command | null = cmd; at?.parent; at = at.parent) path.unshift(at.name());
  return path;
}

const visible = (cmd: Command) => cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);

/** A command's notes (printed after its options) and examples (under its description), with no width limit. */
function afterHelp(cmd: Command): { notes: string[]; examples: string[] } {
  const command = cmd as unknown as Parameters<typeof examplesOf>[0];
  const notes = afterHelpText(command, 'rest')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const examples = examplesOf(command)
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.replace(/^ {2}/, ''));
  return { notes, examples };
}

function section(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [`.SH ${title}`, ...lines];
}

function heading(name: string, summary: string): string[] {
  return [`.TH "${esc(name.toUpperCase())}" "1" "" "trk" "trk manual"`, '.SH NAME', `${esc(name)} \\- ${esc(summary)}`];
}

function examplesSection(examples: readonly string[]): string[] {
  return section('EXAMPLES', examples.length === 0 ? [] : ['.PP', '.nf', '.RS 4', ...examples.map(esc), '.RE', '.fi']);
}

/** The page of one command below trk. */
function commandPage(cmd: Command, help: Help): string {
  const path = commandPath(cmd);
  const { notes, examples } = afterHelp(cmd);
  const subs = visible(cmd);
  const parent = path.length > 1 ? [`\\fB${esc(pageName(path.slice(0, -1)))}\\fR(1)`] : [];
  return [
    ...heading(pageName(path), cmd.description()),
    '.SH SYNOPSIS',
    `\\fBtrk ${esc(path.join(' '))}\\fR ${esc(cmd.usage())}`,
    '.SH DESCRIPTION',
    esc(cmd.description()),
    ...notes.flatMap((n) => ['.PP', esc(n)]),
    ...section(
      'ARGUMENTS',
      help.visibleArguments(cmd).map((a) => item(`\\fI${esc(a.name())}\\fR`, help.argumentDescription(a))),
    ),
    ...section(
      'OPTIONS',
      help.visibleOptions(cmd).map((o) => item(term(help.optionTerm(o)), help.optionDescription(o))),
    ),
    ...section(
      'COMMANDS',
      subs.map((s) => item(`\\fB${esc(s.name())}\\fR`, `${s.description()} (see ${pageName([...path, s.name()])}(1))`)),
    ),
    ...examplesSection(examples),
    '.SH GLOBAL OPTIONS',
    'Every command takes the options of \\fBtrk\\fR(1) (\\fBtrk help options\\fR).',
    '.SH SEE ALSO',
    [...parent, '\\fBtrk\\fR(1)', ...subs.map((s) => `\\fB${esc(pageName([...path, s.name()]))}\\fR(1)`)].join(', '),
    '',
  ].join('\n');
}

/** trk.1: getting started, the commands, every global option, the exit codes. */
function programPage(program: Command, help: Help): string {
  const commands = visible(program);
  return [
    ...heading('trk', program.description()),
    '.SH SYNOPSIS',
    '\\fBtrk\\fR [\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    esc(program.description()),
    '.SH GETTING STARTED',
    ...GETTING_STARTED.map(([line, what]) => item(`\\fB${esc(line)}\\fR`, what)),
    '.SH COMMANDS',
    ...commands.map((c) => item(`\\fB${esc(c.name())}\\fR`, `${c.description()} (see ${pageName([c.name()])}(1))`)),
    '.SH GLOBAL OPTIONS',
    'Every command takes these, before or after its name.',
    ...(program.options as Command['options'])
      .filter((o) => !o.hidden)
      .map((o) => item(term(help.optionTerm(o)), help.optionDescription(o))),
    '.SH HELP TOPICS',
    ...HELP_TOPIC_DESCRIPTIONS.map((t) => item(`\\fBtrk help ${esc(t.name)}\\fR`, t.description)),
    '.SH EXIT STATUS',
    ...EXIT_CODE_HELP.map(([code, text]) => item(`\\fB${code}\\fR`, text)),
    '.SH SEE ALSO',
    commands.map((c) => `\\fB${esc(pageName([c.name()]))}\\fR(1)`).join(', '),
    '',
  ].join('\n');
}

/** Every page, by file name (`trk-auth-login.1`), hidden commands left out. */
export async function manPages(): Promise<Record<string, string>> {
  const program = await buildProgram(async () => {}, '0.0.0');
  // No width limit: roff lays the text out for the reader's terminal.
  const unbounded = (c: Command) => {
    c.configureOutput({ getOutHelpWidth: () => Number.POSITIVE_INFINITY });
    visible(c).forEach(unbounded);
  };
  unbounded(program);
  const help = program.createHelp();
  const pages: Record<string, string> = { 'trk.1': programPage(program, help) };
  const walk = (cmd: Command) => {
    for (const sub of visible(cmd)) {
      pages[`${pageName(commandPath(sub))}.1`] = commandPage(sub, sub.createHelp());
      walk(sub);
    }
  };
  walk(program);
  return pages;
}

/** package.json's text with `man` listing `pages` (npm installs each; its `directories.man` is not read by all). */
export function withManList(packageJson: string, pages: readonly string[]): string {
  const pkg = JSON.parse(packageJson) as Record<string, unknown>;
  pkg.man = pages.map((name) => `./${MAN_DIR}/${name}`).sort();
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = packageFile(MAN_DIR);
  mkdirSync(dir, { recursive: true });
  const pages = await manPages();
  for (const old of readdirSync(dir)) if (!(old in pages)) rmSync(new URL(old, `${dir.href}/`));
  for (const [name, text] of Object.entries(pages)) writeFileSync(new URL(name, `${dir.href}/`), text);
  const manifest = packageFile('package.json');
  const before = readFileSync(manifest, 'utf8');
  const after = withManList(before, Object.keys(pages));
  if (after !== before) writeFileSync(manifest, after);
}

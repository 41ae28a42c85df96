// The command tree as completion scripts need it, read from commander's own definitions so that
// completions can never drift from the commands: names, flags, and the choices of enum flags.

import type { Command, Option } from 'commander';

export interface OptionSpec {
  /** Every spelling: `-o`, `--output`. */
  flags: string[];
  description: string;
  takesValue: boolean;
  /** Fixed values (statuses, formats, ...). */
  choices?: string[];
  /**
   * Values only known at run time, listed by `trk __complete <kind>`: one a line, a TAB and a description after it
   * where there is one (fish shows it; bash and zsh take the value).
   */
  dynamic?: 'profiles' | 'carriers';
}

export interface CommandSpec {
  name: string;
  description: string;
  options: OptionSpec[];
  commands: CommandSpec[];
  /** Fixed values of the first positional argument (`trk completion <bash|zsh|fish>`). */
  argumentChoices?: string[];
  /** Run-time values of the first positional argument (`trk auth switch <profile>`). */
  argumentDynamic?: OptionSpec['dynamic'];
}

/** Flags whose values depend on the user's own data. Every flag taking a `<carrier>` takes a carrier's name. */
const DYNAMIC_VALUES: Record<string, OptionSpec['dynamic']> = { '--profile': 'profiles' };
const DYNAMIC_PLACEHOLDERS: Record<string, OptionSpec['dynamic']> = { '<carrier>': 'carriers' };
/** Positional arguments, by name, whose values depend on the user's own data. */
const DYNAMIC_ARGUMENTS: Record<string, OptionSpec['dynamic']> = { profile: 'profiles' };

function optionSpec(opt: Option): OptionSpec {
  const flags = [opt.short, opt.long].filter((f): f is string => typeof f === 'string');
  const spec: OptionSpec = {
    flags,
    description: firstLine(opt.description),
    takesValue: opt.required || opt.optional,
  };
  if (opt.argChoices && opt.argChoices.length > 0) spec.choices = [...opt.argChoices];
  const placeholder = /<[^>]+>/.exec(opt.flags)?.[0];
  const dynamic =
    (opt.long ? DYNAMIC_VALUES[opt.long] : undefined) ?? (placeholder ? DYNAMIC_PLACEHOLDERS[placeholder] : undefined);
  if (dynamic) spec.dynamic = dynamic;
  return spec;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0]!.trim();
}

/**
 * Walk a commander program into a CompletionSpec tree; hidden commands and options are left out. The options
 * of ancestors are offered below them too, since commander accepts program options after a sub-command.
 */
export function commandSpec(cmd: Command, inherited: readonly OptionSpec[] = []): CommandSpec {
  const hidden = (c: Command) => (c as unknown as { _hidden?: boolean })._hidden === true;
  const own = cmd.options.filter((o) => !o.hidden).map(optionSpec);
  const passedDown = [...own, ...inherited];
  const spec: CommandSpec = {
    name: cmd.name(),
    description: firstLine(cmd.description()),
    options: [...passedDown, { flags: ['-h', '--help'], description: 'display help', takesValue: false }],
    commands: cmd.commands.filter((c) => !hidden(c)).map((c) => commandSpec(c, passedDown)),
  };
  const first = cmd.registeredArguments[0];
  if (first?.argChoices && first.argChoices.length > 0) spec.argumentChoices = [...first.argChoices];
  const dynamic = first ? DYNAMIC_ARGUMENTS[first.name()] : undefined;
  if (dynamic) spec.argumentDynamic = dynamic;
  return spec;
}

/** A topic of `trk help` that is not a command (`trk help exit-codes`). */
export interface HelpTopic {
  name: string;
  description: string;
}

/**
 * The tree completions are generated from: the commands, and under `help` the same commands again (names only)
 * with the help topics, so that `trk help <Tab>` and `trk help auth <Tab>` offer what `trk help` takes.
 */
export function completionTree(program: Command, topics: readonly HelpTopic[]): CommandSpec {
  const root = commandSpec(program);
  const mirror = (c: CommandSpec): CommandSpec => ({
    name: c.name,
    description: c.description,
    options: [],
    commands: c.commands.map(mirror),
  });
  const help = root.commands.find((c) => c.name === 'help');
  if (help) {
    const leaf = (t: HelpTopic): CommandSpec => ({
      name: t.name,
      description: t.description,
      options: [],
      commands: [],
    });
    help.commands = [...root.commands.filter((c) => c !== help).map(mirror), ...topics.map(leaf)];
  }
  return root;
}

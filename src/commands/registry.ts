// The command tree, assembled. Every command is listed here once, in the order of `trk --help`, with its summary
// and its file (`commands/<noun>/<verb>.ts`: declaration and action; a group's file takes in its subcommands'). Only
// the command being run is declared in full: `trk stop ...` loads stop's file and nothing else, and `trk --help`
// lists the commands from this table alone. `trk help`, `trk completion` and the tests ask for the whole tree.

import { Command } from './commander.js';
import type { Command as PlainCommand } from 'commander';
import type { AddHelpTextContext } from '@commander-js/extra-typings';
import { GLOBAL_VALUE_FLAGS, globalOptions, type BareCommand, type Declare, type Invoker } from './define.js';
import { globalOptionsLine, HELP_CONFIGURATION, layoutItems, pageWidth } from './help-layout.js';

export type { Invoker, Runner } from './define.js';

interface Entry {
  name: string;
  summary: string;
  /** Has subcommands: gets a `help` subcommand worded like trk's own. */
  group?: true;
  hidden?: true;
  /** The command's file (`commands/<noun>/<verb>.ts`; a group's, which takes in its subcommands' files). */
  declaration: () => Promise<{ declaration: Declare }>;
}

export const COMMANDS: readonly Entry[] = [
  {
    name: 'register',
    summary: 'register tracking numbers for automatic tracking (costs quota)',
    declaration: () => import('./items/register.js'),
  },
  { name: 'stop', summary: 'stop automatic tracking of numbers', declaration: () => import('./items/stop.js') },
  {
    name: 'retrack',
    summary: 'restart tracking of stopped numbers (once per number)',
    declaration: () => import('./items/retrack.js'),
  },
  {
    name: 'delete',
    summary: 'delete numbers from the account (irreversible; asks first, or needs --yes)',
    declaration: () => import('./items/delete.js'),
  },
  {
    name: 'push',
    summary: 'queue a webhook notification of the current result',
    declaration: () => import('./items/push.js'),
  },
  {
    name: 'list',
    summary: 'list registered numbers matching filters (gettracklist)',
    declaration: () => import('./list/list.js'),
  },
  {
    name: 'info',
    summary: 'show stored tracking details of numbers (gettrackinfo)',
    declaration: () => import('./items/info.js'),
  },
  { name: 'quota', summary: 'show the quota of the account', declaration: () => import('./quota/quota.js') },
  {
    name: 'realtime',
    summary: 'fetch current tracking data of one number from the carrier (costs quota)',
    declaration: () => import('./items/realtime.js'),
  },
  {
    name: 'change-carrier',
    summary: 'change the carrier or last-mile carrier of numbers (at most 5 times each)',
    declaration: () => import('./items/change-carrier.js'),
  },
  {
    name: 'update',
    summary: 'change the tag, parameter or translation language of numbers (changeinfo)',
    declaration: () => import('./items/update.js'),
  },
  {
    name: 'sync',
    summary: "keep a local mirror of the account's records and tracking details",
    declaration: () => import('./mirror/sync.js'),
  },
  {
    name: 'changes',
    summary: 'status changes the mirror learnt, from syncs and the webhook',
    declaration: () => import('./mirror/changes.js'),
  },
  {
    name: 'find',
    summary: "find a customer's parcel in the mirror by order number, e-mail or tag",
    declaration: () => import('./mirror/find.js'),
  },
  {
    name: 'report',
    summary: 'how carriers perform: transit times, exceptions, stuck parcels (mirror)',
    declaration: () => import('./mirror/report.js'),
  },
  {
    name: 'notify',
    summary: 'tell team, customers and chats when parcels change (mirror)',
    group: true,
    declaration: () => import('./notify/notify.js'),
  },
  {
    name: 'runs',
    summary: 'list and forget the runs of files and pipes trk remembers',
    group: true,
    declaration: () => import('./runs/runs.js'),
  },
  {
    name: 'api',
    summary: "send a raw request and print the service's answer as JSON",
    declaration: () => import('./api/api.js'),
  },
  {
    name: 'auth',
    summary: 'log in to profiles, switch between them, list, check and remove them',
    group: true,
    declaration: () => import('./auth/auth.js'),
  },
  {
    name: 'config',
    summary: 'read and change settings of the profile',
    group: true,
    declaration: () => import('./config/config.js'),
  },
  {
    name: 'sandbox',
    summary: 'run the service emulator locally',
    group: true,
    declaration: () => import('./sandbox/sandbox.js'),
  },
  {
    name: 'carriers',
    summary: "search the service's carrier list (codes and names)",
    declaration: () => import('./reference/carriers.js'),
  },
  {
    name: 'countries',
    summary: "search the service's country list",
    declaration: () => import('./reference/countries.js'),
  },
  {
    name: 'webhook',
    summary: 'check notifications the service sends to the webhook URL',
    group: true,
    declaration: () => import('./webhook/webhook.js'),
  },
  {
    name: 'completion',
    summary: 'print the completion script for bash, zsh, fish or PowerShell (see the README to install it)',
    declaration: () => import('./completion/completion.js'),
  },
  { name: '__complete', summary: '', hidden: true, declaration: () => import('./completion/complete.js') },
  {
    name: 'help',
    summary: 'show help for a command, or a topic: exit-codes, options',
    declaration: () => import('./help/help.js'),
  },
];

/** What `trk --help` opens with: the first three things a newcomer does. */
export const GETTING_STARTED = [
  ['trk register RR123456789CN --sandbox', 'try trk on its emulator (no account)'],
  ['trk list --sandbox', '...and see what the sandbox tracks'],
  ['trk auth login', 'save your API key (verified first)'],
  ['trk list', 'the numbers your account tracks'],
  ['trk help COMMAND', 'what a command does and takes'],
] as const;

const gettingStarted = (context: AddHelpTextContext) =>
  `Getting started:\n${layoutItems(GETTING_STARTED, pageWidth(context))}\n`;

/** Commands that need the whole tree: help about any command, and the completion scripts (not their values). */
const WHOLE_TREE = new Set(['help', 'completion']);

/**
 * The words of an argument list that name its command and subcommand (`webhook listen`), at most two: those that
 * are not options nor values of global options; after `--`, whatever follows.
 */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return [...words, ...argv.slice(i + 1)].slice(0, 2);
    if (arg.startsWith('-')) {
      if (GLOBAL_VALUE_FLAGS.has(arg)) i += 1;
      continue;
    }
    words.push(arg);
  }
  return words;
}

/**
 * The command an argument list runs (its first word that is not a global option or the value of one), `all`
 * when that command needs the whole tree, or null for none (`trk`, `trk --help`, `trk --version`).
 */
export function commandOf(argv: readonly string[]): string | null {
  const [command] = commandWords(argv);
  if (command === undefined) return null;
  return WHOLE_TREE.has(command) ? 'all' : command;
}

/**
 * The program with every command named and described, and `declare` ones declared in full: a command name,
 * `all` (the default), or null for none.
 */
export async function buildProgram(
  invoke: Invoker,
  version: string,
  declare: string | null = 'all',
): Promise<PlainCommand> {
  const program = new Command('trk')
    .description(
      'Operate a parcel-tracking service account: register, list, inspect, stop, retrack, delete and push ' +
        'tracking numbers.',
    )
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .configureHelp(HELP_CONFIGURATION)
    .addHelpText('before', gettingStarted)
    .addHelpText('afterAll', globalOptionsLine);
  for (const option of globalOptions()) program.addOption(option);
  for (const entry of COMMANDS) {
    const cmd: BareCommand = program.command(entry.name, { hidden: entry.hidden === true }).description(entry.summary);
    if (entry.group) cmd.helpCommand('help [command]', 'show help for a command');
    if (declare === 'all' || declare === entry.name) {
      (await entry.declaration()).declaration(cmd, invoke);
    }
  }
  return program as unknown as PlainCommand;
}

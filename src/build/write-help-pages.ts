// Build step (`npm run build`): every help page as `trk` prints it, into lib/help-pages.json (see
// src/help-pages.ts). Each page is produced by running the command line itself, so the file cannot say anything
// trk would not.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCli } from '../cli.js';
import { HELP_TOPICS } from '../commands/help/help.js';
import { buildProgram } from '../commands/registry.js';
import { HELP_PAGES_FILE, HELP_WIDTH, helpPageKey } from '../help-pages.js';
import { packageFile } from '../package-files.js';
import { createCapturedIO } from '../io/captured-io.js';

/** Every command path (`[]`, `['list']`, `['auth', 'login']`), hidden commands left out unless asked for. */
export async function commandPaths(opts: { hidden?: boolean } = {}): Promise<string[][]> {
  const program = await buildProgram(async () => {}, '0.0.0');
  const paths: string[][] = [[]];
  const walk = (cmd: typeof program, at: string[]) => {
    for (const sub of cmd.commands) {
      // commander keeps `hidden` in a field of its own, with no getter.
      if (!opts.hidden && (sub as unknown as { _hidden?: boolean })._hidden) continue;
      const path = [...at, sub.name()];
      paths.push(path);
      walk(sub, path);
    }
  };
  walk(program, []);
  return paths;
}

/** What a command line prints on stdout, when it exits 0 and says nothing on stderr; undefined otherwise. */
export async function printedHelp(argv: string[]): Promise<string | undefined> {
  const io = createCapturedIO({ columns: HELP_WIDTH });
  const code = await runCli(argv, { io, env: {} });
  return code === 0 && io.stderrText() === '' ? io.stdoutText() : undefined;
}

/** The command lines the file holds: `--help` after each command path, `help` before it, and the help topics. */
export async function helpCommandLines(): Promise<string[][]> {
  const lines: string[][] = [];
  for (const path of await commandPaths()) {
    lines.push([...path, '--help']);
    if (path.length > 0 && path[0] !== 'help') lines.push(['help', ...path]);
  }
  for (const topic of HELP_TOPICS) lines.push(['help', topic]);
  return lines;
}

export async function helpPages(): Promise<Record<string, string>> {
  const pages: Record<string, string> = {};
  for (const argv of await helpCommandLines()) {
    const text = await printedHelp(argv);
    if (text !== undefined) pages[helpPageKey(argv)] = text;
  }
  return pages;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(packageFile(HELP_PAGES_FILE), `${JSON.stringify(await helpPages())}\n`);
}

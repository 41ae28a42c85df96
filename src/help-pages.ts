// Help pages read from a file instead of being laid out by commander. `trk --help` and `trk COMMAND --help` are
// what people type most when they are unsure, and loading commander and the command's declarations for them
// costs more than starting Node. `npm run build` writes every help page, as trk prints it, into
// lib/help-pages.json (src/build/write-help-pages.ts); bin/trk.js prints a page from there when the command line is
// exactly one that the file holds. Help is laid out for at most HELP_WIDTH columns, so the pages hold for any
// terminal at least that wide (and when no terminal is there); a narrower terminal gets help laid out live. A test
// keeps the file equal to what commander prints.


/** The widest help is laid out (src/cli.ts), as clap does: longer lines are harder to read. */
export const HELP_WIDTH = 100;

/** Where the build writes the pages, from the package root (beside the bundle bin/trk.js loads). */
export const HELP_PAGES_FILE = 'lib/help-pages.json';

interface Stream {
  isTTY?: boolean;
  columns?: number;
}

/**
 * The width help is laid out for: the terminal's, at most HELP_WIDTH. When only stdout is redirected
 * (`trk --help | less`), stderr's terminal tells the width; when neither is a terminal, HELP_WIDTH.
 */
export function helpWidth(stdout: Stream, stderr: Stream): number {
  const columns = stdout.isTTY ? stdout.columns : stderr.isTTY ? stderr.columns : undefined;
  return Math.min(columns ?? HELP_WIDTH, HELP_WIDTH);
}

/** The page's key: the command line with `-h` written `--help`. */
export function helpPageKey(argv: readonly string[]): string {
  return argv.map((a) => (a === '-h' ? '--help' : a)).join(' ');
}

/**
 * The help page this command line prints, when it is one the file holds (the file holds help command lines
 * only) and the output is wide enough (or not a terminal); undefined otherwise, and when the file cannot be read
 * (help is then laid out live). bin/trk.js asks only for command lines that end in --help or start with help.
 */
export function storedHelpPage(
  argv: readonly string[],
  stdout: Stream,
  stderr: Stream,
  // node:fs's, from bin/trk.js, which has it already: `trk --help` loads this one file and no module of trk's.
  readFileSync: (file: URL, encoding: 'utf8') => string,
  // From the package root as src/package-files.ts finds it (this module too sits at the top of src/); not imported
  // from there, so that `trk --help` loads this one file.
  file: URL = new URL(`../${HELP_PAGES_FILE}`, import.meta.url),
): string | undefined {
  if (helpWidth(stdout, stderr) < HELP_WIDTH) return undefined;
  try {
    const pages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const page = pages[helpPageKey(argv)];
    return typeof page === 'string' ? page : undefined;
  } catch {
    return undefined;
  }
}

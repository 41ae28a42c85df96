// Build step, first of all (`npm run build`, `npm run typecheck`, npm's prepare step): the three lists that name
// modules of a folder, written from the folders themselves, so that adding an operation or a command is writing its
// files and nothing else. ES modules cannot be found in a folder at run time, and the bundle needs each import
// written out: these files do it. They are not kept in git (.gitignore); a file is rewritten only when its text
// changes, so an unchanged tree builds no more than before.
//
// - packages/service/src/operations/modules.ts: every operation's module, the `export const NAME = {...} as const
//   satisfies ...OperationSpec<...>` of each file of the folder, in the order of their files.
// - packages/sandbox/src/ops/rows.ts: every row of the emulator's table, each `export const NAME: EmulatedOperation`.
// - src/commands/listed.ts: every command of `trk --help`, from each `export const listing = {...} satisfies Listing`
//   of a command's file (src/commands/<noun>/<verb>.ts): its name, summary and section copied here, so that the
//   list is read without loading any command's file, and its file loaded by an import() of its own.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const HEADER = (what) =>
  [
    '// Written by the build (scripts/write-lists.mjs) and not kept in git: edit the files it is made from,',
    `// ${what}, never this one.`,
    '',
  ].join('\n');

/** A string as the code's style writes it (single quotes). */
const quote = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** An array literal, one element a line. */
const arrayOf = (names) => ['[', ...names.map((n) => `  ${n},`), ']'].join('\n');

/** The .ts files of a folder (one level), by name, except the list written into it. */
function modulesOf(root, folder, written) {
  return readdirSync(path.join(root, folder))
    .filter((name) => name.endsWith('.ts') && name !== written)
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(root, folder, name), 'utf8') }));
}

const jsPath = (name) => `./${name.replace(/\.ts$/, '.js')}`;

function importLines(found) {
  const byFile = new Map();
  for (const { file, name } of found) byFile.set(file, [...(byFile.get(file) ?? []), name]);
  return [...byFile].map(([file, names]) => `import { ${names.join(', ')} } from '${jsPath(file)}';`);
}

function operationModules(root) {
  const found = [];
  for (const { name, text } of modulesOf(root, 'packages/service/src/operations', 'modules.ts')) {
    const spec = /^export const (\w+) = \{$[\s\S]*?^\} as const satisfies \w*OperationSpec</m.exec(text);
    if (spec) found.push({ file: name, name: spec[1] });
  }
  return [
    HEADER("the operations' modules beside it"),
    ...importLines(found),
    '',
    "/** Every operation's module, in the order of their files. */",
    `export const OPERATION_MODULES = ${arrayOf(found.map((f) => f.name))} as const;`,
    '',
  ].join('\n');
}

function emulatorRows(root) {
  const found = [];
  for (const { name, text } of modulesOf(root, 'packages/sandbox/src/ops', 'rows.ts')) {
    for (const row of text.matchAll(/^export const (\w+): EmulatedOperation = \{$/gm)) {
      found.push({ file: name, name: row[1] });
    }
  }
  return [
    HEADER("the handlers' modules beside it"),
    "import type { EmulatedOperation } from './call.js';",
    ...importLines(found),
    '',
    "/** Every row of the emulator's table, as its handler's module gives it. */",
    `export const EMULATED_ROWS: readonly EmulatedOperation[] = ${arrayOf(found.map((f) => f.name))};`,
    '',
  ].join('\n');
}

const LISTING = /^export const listing = (\{[\s\S]*?\}) satisfies Listing;$/m;
const LISTING_KEYS = new Set(['name', 'summary', 'section', 'group', 'hidden']);

/** A command file's listing, read as the literal it must be (it is copied, never run). */
function listingOf(file, text) {
  const literal = LISTING.exec(text)?.[1];
  if (literal === undefined) return undefined;
  let listing;
  try {
    listing = new Function(`return (${literal});`)();
  } catch (err) {
    throw new Error(`${file}: its listing must be a literal of strings and booleans (${err.message})`);
  }
  const unknown = Object.keys(listing).filter((key) => !LISTING_KEYS.has(key));
  if (typeof listing.name !== 'string' || typeof listing.summary !== 'string' || unknown.length > 0) {
    throw new Error(`${file}: a listing has a name, a summary, a section, and maybe group or hidden`);
  }
  return listing;
}

function commandListings(root) {
  const commands = path.join(root, 'src/commands');
  const found = [];
  for (const noun of readdirSync(commands, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const { name, text } of modulesOf(root, `src/commands/${noun.name}`)) {
      const listing = listingOf(`src/commands/${noun.name}/${name}`, text);
      if (listing) found.push({ ...listing, file: `./${noun.name}/${name.replace(/\.ts$/, '.js')}` });
    }
  }
  found.sort((a, b) => (a.name < b.name ? -1 : 1));
  const entry = ({ file, ...listing }) =>
    [
      '  {',
      ...Object.entries(listing).map(
        ([key, value]) => `    ${key}: ${typeof value === 'string' ? quote(value) : value},`,
      ),
      `    declaration: () => import('${file}'),`,
      '  },',
    ].join('\n');
  return [
    HEADER("the listing of each command's file, src/commands/<noun>/<verb>.ts"),
    "import type { Listed } from './listing.js';",
    '',
    '/** Every command, by name, each with the import of its file. */',
    'export const LISTED: readonly Listed[] = [',
    ...found.map(entry),
    '];',
    '',
  ].join('\n');
}

/** Each list's file and the text it should have, for the tree at `root` as it is. */
export function lists(root = ROOT) {
  return {
    'packages/service/src/operations/modules.ts': operationModules(root),
    'packages/sandbox/src/ops/rows.ts': emulatorRows(root),
    'src/commands/listed.ts': commandListings(root),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, text] of Object.entries(lists())) {
    const target = path.join(ROOT, file);
    if (!existsSync(target) || readFileSync(target, 'utf8') !== text) writeFileSync(target, text);
  }
}

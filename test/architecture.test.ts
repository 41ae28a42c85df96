// The boundaries of the code, as ARCHITECTURE.md draws them, held by reading every import of src/ (the CLI) and of
// the workspace's packages (packages/<name>/src: @trk/service, @trk/sandbox):
//   - an order of layers (MAY_IMPORT) that names every folder and file at the top of src/ (at most five files) and
//     every package, with what each may import: nothing imports upward, no two layers import each other;
//   - the packages never import the CLI (nothing of packages/, their tests included, reaches into src/), and their
//     package.json files say the same: trk depends on them, the emulator on the service's description;
//   - the emulator takes of the service's description its model, never its operation modules, and carriers never
//     reach into it; completion reads the command tree only in its build step;
//   - api talks to the service and leaves rendering (output) and settings (config) to its callers, which pass it
//     numbers and callbacks; the rate budget (pacing) is below api, and takes only the service's vocabulary from it;
//   - a command reaches the item engine through its entry points only, never its chunking or CSV reading;
//   - product code reaches the emulator through its door, src/sandbox.ts, only, lazily (or for types), so start-up
//     never loads it;
//   - import() is for the command-action boundary (the command line, the list of commands, each command's
//     declaration) and for the heavy parts named below; everything else is imported statically;
//   - Node's built-ins are handed out by src/core/node.ts alone (process.getBuiltinModule nowhere else);
//   - the service's list is paged through by one reader, trackListPages in src/api/pages.ts: no other module asks
//     for a page of gettracklist but the first, nor takes the paging under that reader (readPages, the checks);
//   - no function of src/ is over 120 lines: a large unit is a class with small methods, or small modules;
//   - no class of src/ is over 300 lines: a class with more to do hands parts of it to collaborators of their own
//     (the one over it today is named, with its reason, in LONG_CLASSES);
//   - no modules of src/ import values of one another in a cycle (a type-only import loads nothing): the cycles of
//     today, none in the item engine, are named with their reasons in VALUE_CYCLES.
//   - the service's model (@trk/service: vocabulary, codes, records) imports nothing else of trk, and it is all the
//     emulator takes of trk;
//   - the store (src/store/) is persistence alone: it imports nothing of trk but the leaves named in STORE_LEAVES
//     (never the client, the commands, the engine, the output, the listener, the context, nor the mirror's work in
//     src/mirror/, which imports it); the report takes of it only its interface (store/types.ts); no class of it is
//     over 300 lines.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const PACKAGES = path.join(ROOT, 'packages');
/** The workspace's packages by name (`@trk/service`), each with the folder of its sources. */
const PACKAGE_SOURCES: ReadonlyMap<string, string> = new Map(
  readdirSync(PACKAGES).map((dir) => {
    const pkg = JSON.parse(readFileSync(path.join(PACKAGES, dir, 'package.json'), 'utf8')) as { name: string };
    return [pkg.name, path.join(PACKAGES, dir, 'src')];
  }),
);

interface Import {
  /** The importing file, relative to src/ (`commands/items/register.ts`), or in a package (`@trk/sandbox/x.ts`). */
  from: string;
  /** The imported module, as `from` names it, or a package name. */
  to: string;
  kind: 'static' | 'type' | 'dynamic';
}

/** The scripts of a bin/ folder. */
function binFiles(dir: string): string[] {
  return path.basename(dir) === 'bin' ? readdirSync(dir).map((name) => path.join(dir, name)) : [];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT = new RegExp(
  [
    // import x from '...' (m[1]: type)
    `(?:^|\\n)\\s*import\\s+(type\\s+)?[^'";]*?from\\s*['"]([^'"]+)['"]`,
    // import('...') (m[3]: typeof, a type)
    `(typeof\\s+)?import\\(\\s*['"]([^'"]+)['"]\\s*\\)`,
    // export ... from '...' (m[5]: type)
    `(?:^|\\n)\\s*export\\s+(type\\s+)?[^'";]*?from\\s*['"]([^'"]+)['"]`,
  ].join('|'),
  'g',
);

/** A file of src/ relative to it; one of a package's sources by the package's name (`@trk/service/fields.ts`). */
function label(file: string): string {
  for (const [name, dir] of PACKAGE_SOURCES) {
    if (file.startsWith(dir + path.sep)) return path.join(name, path.relative(dir, file));
  }
  return path.relative(SRC, file);
}

/** What `spec`, imported by `file`, names: a module of src/ or of a package (as label names it), else the package. */
function resolved(file: string, spec: string): string {
  const own = /^(@trk\/[\w-]+)(?:\/(.+))?$/.exec(spec);
  if (own?.[1] && PACKAGE_SOURCES.has(own[1])) {
    return path.join(own[1], ...(own[2] ?? 'index.js').replace(/\.js$/, '.ts').split('/'));
  }
  if (!spec.startsWith('.')) return spec;
  return label(path.resolve(path.dirname(file), spec)).replace(/\.js$/, '.ts');
}

function importsOf(file: string, text: string): Import[] {
  const from = label(file);
  const out: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[2] ?? m[4] ?? m[6] ?? '';
    // `typeof import('./x.js')` names a module's type, which loads nothing.
    const dynamic = m[4] !== undefined && m[3] === undefined;
    const typeOnly = m[1] !== undefined || m[3] !== undefined || m[5] !== undefined;
    const kind = dynamic ? 'dynamic' : typeOnly ? 'type' : 'static';
    out.push({ from, to: resolved(file, spec), kind });
  }
  return out;
}

/** Every module: the CLI's (src/) and its packages' sources. */
const SOURCES = [SRC, ...PACKAGE_SOURCES.values()].flatMap((dir) => sourceFiles(dir));
const IMPORTS = SOURCES.flatMap((f) => importsOf(f, readFileSync(f, 'utf8')));
/** The layer of a module: its folder (or file) at the top of src/, or its package (`@trk/service`). */
const top = (p: string) =>
  p.startsWith('@trk') ? p.split(path.sep).slice(0, 2).join('/') : (p.split(path.sep)[0] ?? '');
/** A module of src/ (relative to it), not a package or one of Node's. */
const isProduct = (p: string) => !p.startsWith('node:') && !path.isAbsolute(p) && /\.ts$/.test(p);
const show = (i: Import) => `${i.from} → ${i.to} (${i.kind})`;
/** A path of src/ written with `/`, as this system writes it. */
const native = (p: string) => p.split('/').join(path.sep);
const fromPaths = (o: Record<string, string>) => new Map(Object.entries(o).map(([p, why]) => [native(p), why]));

/** A function of src/ with a body, and its length in lines, from the line it starts on to the line it ends on. */
interface FunctionLength {
  /** `context-impl.ts:74 createContext` */
  name: string;
  lines: number;
}

function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: FunctionLength[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = lineOf(node.getStart(source));
      out.push({
        name: `${label(file)}:${start} ${functionName(node)}`,
        lines: lineOf(node.getEnd()) - start + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The name a function is known by: its own, its variable's or its property's; `(anonymous)` otherwise. */
function functionName(node: ts.Node): string {
  const named = (n: ts.Node): string | undefined =>
    'name' in n && n.name && ts.isIdentifier(n.name as ts.Node) ? (n.name as ts.Identifier).text : undefined;
  return named(node) ?? named(node.parent) ?? '(anonymous)';
}

const MAX_FUNCTION_LINES = 120;

/** A class of src/ and its length in lines, from the line it starts on to the line it ends on. */
interface ClassLength {
  /** `store/sql-store.ts SqlStore` */
  name: string;
  lines: number;
}

function classLengths(file: string, text: string): ClassLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: ClassLength[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isClassLike(node)) {
      const start = lineOf(node.getStart(source));
      const name = node.name?.text ?? functionName(node);
      out.push({ name: `${label(file)} ${name}`, lines: lineOf(node.getEnd()) - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const MAX_CLASS_LINES = 300;

/**
 * The classes over MAX_CLASS_LINES today, each with its reason; the rule holds for every other class of src/, and
 * one of these that grows past its length here fails it too. Take an entry out once its class is split.
 */
const LONG_CLASSES: ReadonlyMap<string, { lines: number; why: string }> = new Map(
  Object.entries({
    '@trk/sandbox/account/account.ts Account': {
      lines: 304,
      why: "the emulator's account: its records and their story",
    },
  }).map(([name, entry]) => [native(name), entry]),
);

/**
 * The cycles among modules of src/ that import values of one another, statically or with import() (a type-only
 * import loads nothing), each as its modules in order, joined by ` ↔ `. A cycle of several is one component
 * (Tarjan's strongly connected components), whatever its shape.
 */
function valueCycles(imports: readonly Import[]): string[] {
  const graph = new Map<string, string[]>();
  for (const i of imports) {
    if (i.kind === 'type' || !isProduct(i.to)) continue;
    graph.set(i.from, [...(graph.get(i.from) ?? []), i.to]);
    if (!graph.has(i.to)) graph.set(i.to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) component.push(w);
    const selfLoop = graph.get(v)?.includes(v) ?? false;
    if (component.length > 1 || selfLoop) cycles.push(component.sort().join(' ↔ '));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort();
}

/**
 * The cycles of modules that import values of one another today, each with its reason; none may be in the item
 * engine (src/items/), and no other may start. Each is a part loaded lazily (import()) that takes what it shares
 * with the module loading it from that module.
 */
const VALUE_CYCLES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'api/transport-http.ts ↔ api/transport-undici.ts ↔ api/transport.ts':
      'the transports, loaded lazily by api/transport.ts, take its shared helpers (utf8) from it',
    'commands/list/list-run.ts ↔ commands/list/watch.ts':
      "--watch, loaded lazily by the list's command, takes the list's reading (listRecords, listLimit) from it",
  }).map(([cycle, why]) => [cycle.split(' ↔ ').map(native).join(' ↔ '), why]),
);

/** The folders each folder of src/ stands below, and so never imports. */
/**
 * The order of layers, lowest first: each folder of src/ and each file at its top, with what it may import besides
 * itself. A layer names only layers before it, so nothing imports upward and no two layers import each other.
 * The packages come first: @trk/service is the service's model, @trk/sandbox the emulator, which takes only that
 * model; src/sandbox.ts is trk's door to the emulator. core/ the leaves every layer may take (errors, exit codes,
 * the clock, Node's built-ins, files' modes); io/ the process's streams; the shared budget (pacing/) is below the
 * client (api/), which leaves rendering (output/) and settings (config/) to its callers; the store is persistence
 * alone, the mirror's work above it; commands/ assemble everything; completion/ reads the command tree it is given;
 * build/ holds the build steps that write the help pages, man pages and completion scripts from the command tree.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  '@trk/service': [],
  '@trk/sandbox': ['@trk/service'],
  'package-files.ts': [],
  'help-pages.ts': [],
  core: ['@trk/service', 'package-files.ts'],
  io: ['core'],
  output: ['@trk/service', 'core', 'io'],
  config: ['@trk/service', 'core', 'output'],
  pacing: ['@trk/service', 'core'],
  api: ['@trk/service', 'core', 'io', 'pacing'],
  store: ['@trk/service', 'core', 'io', 'config'],
  webhook: ['@trk/service', 'core', 'io'],
  'sandbox.ts': ['@trk/sandbox', 'core'],
  context: ['@trk/service', 'core', 'io', 'output', 'config', 'pacing', 'api', 'sandbox.ts'],
  carriers: ['@trk/service', 'package-files.ts', 'core', 'config', 'api', 'context'],
  items: ['@trk/service', 'core', 'io', 'output', 'config', 'pacing', 'api', 'context', 'carriers'],
  mirror: ['@trk/service', 'core', 'output', 'config', 'api', 'store', 'webhook', 'context', 'carriers'],
  report: ['@trk/service', 'core', 'io', 'output', 'store'],
  completion: [],
  commands: [
    'package-files.ts',
    'help-pages.ts',
    '@trk/service',
    'core',
    'io',
    'output',
    'config',
    'api',
    'store',
    'webhook',
    'sandbox.ts',
    'context',
    'carriers',
    'items',
    'mirror',
    'report',
    'completion',
  ],
  'cli.ts': ['help-pages.ts', 'core', 'io', 'output', 'config', 'api', 'context', 'commands'],
  build: ['package-files.ts', 'help-pages.ts', 'core', 'io', 'completion', 'commands', 'cli.ts'],
};
/** At most this many files at the top of src/: the command line and what must sit there (see MAY_IMPORT). */
const MAX_ROOT_FILES = 5;

/** Imports that break the order of layers: to a layer not named before the importer's own in MAY_IMPORT. */
const outOfOrder = (imports: readonly Import[], order = MAY_IMPORT) =>
  imports.filter(
    (i) => isProduct(i.to) && top(i.to) !== top(i.from) && !(order[top(i.from)] ?? []).includes(top(i.to)),
  );

/** Layers that name one not before them in the order (which would let two layers import each other). */
const namedOutOfOrder = (order: Readonly<Record<string, readonly string[]>>) => {
  const layers = Object.keys(order);
  return layers.flatMap((layer, at) =>
    (order[layer] ?? []).filter((below) => !layers.slice(0, at).includes(below)).map((b) => `${layer} → ${b}`),
  );
};

/**
 * What the emulator takes of the service's description: its model (versions, limits, enums, codes, the shapes of
 * its answers, its reference lists). Never trk's reading of the service (its operation modules, its bodies, its
 * webhook signing, its carrier lists): a misreading would then agree with itself.
 */
const sandboxMayUse = (to: string) =>
  (top(to) === '@trk/service' && path.dirname(to) !== path.join('@trk/service', 'operations')) ||
  top(to) === '@trk/sandbox';

/**
 * Where a file of packages/ (its sources, tests, bin) imports the CLI: a relative import that leaves its package for
 * src/, or trk's own modules by any other road (its compiled dist/, lib/, bin/, the package by name). The
 * repository's test helpers (test/: its clock, its fixtures) are shared by every test of the workspace.
 */
function importsTheCli(file: string, text: string): string[] {
  const cli = ['src', 'dist', 'lib', 'bin'].map((dir) => path.join(ROOT, dir) + path.sep);
  const intoCli = (spec: string) =>
    spec === 'trk' ||
    spec.startsWith('trk/') ||
    (spec.startsWith('.') && cli.some((dir) => path.resolve(path.dirname(file), spec).startsWith(dir)));
  return [...text.matchAll(IMPORT)]
    .map((m) => m[2] ?? m[4] ?? m[6] ?? '')
    .filter(intoCli)
    .map((spec) => `${path.relative(ROOT, file)} → ${spec}`);
}

/** The list of commands the build writes (scripts/write-lists.mjs), whose import()s name the command files. */
const LISTED = path.join('commands', 'listed.ts');

/**
 * The command files (`commands/<noun>/<verb>.ts`): what the list of commands loads, one for the command run, and the
 * files of a group's subcommands, whose declarations the group's file takes in.
 */
const COMMAND_FILES = new Set(IMPORTS.filter((i) => i.from === LISTED && i.kind === 'dynamic').map((i) => i.to));
for (const group of [...COMMAND_FILES])
  for (const i of IMPORTS)
    if (i.from === group && i.kind === 'static' && path.dirname(i.to) === path.dirname(group))
      if (/^export const declaration\b/m.test(readFileSync(path.join(SRC, i.to), 'utf8'))) COMMAND_FILES.add(i.to);

/**
 * Where import() stands for the command-action boundary: the command line loads the command's run module, the IO
 * and the context; the list of commands loads one command's file; a command's action loads what its run uses.
 */
const ACTION_BOUNDARY = (from: string) => from === 'cli.ts' || from === LISTED || COMMAND_FILES.has(from);

/**
 * What may be imported lazily anywhere: the dependencies and parts of trk that a command loads only on the path
 * that needs them (ARCHITECTURE.md, "Start-up"), each with its reason.
 */
const HEAVY: ReadonlyMap<string, string> = fromPaths({
  undici: 'the pooled transport, for runs of many requests (25 ms)',
  chalk: 'colour, for a terminal',
  '@inquirer/prompts': 'questions, for a terminal',
  'csv-parse': 'reading CSV input',
  'string-width': 'widths of text beyond ASCII, for output laid out for people',
  'csv-stringify': 'writing CSV',
  'csv-stringify/sync': 'writing CSV',
  'jq-wasm': '--jq',
  'node:worker_threads': '--jq runs in a worker',
  echarts: "the HTML report's charts",
  nodemailer: 'mail, for trk notify (its first message)',
  'echarts/dist/echarts.esm.min': "the HTML report's charts",
  'api/client.ts': 'the client, built with the first request',
  'api/transport-http.ts': 'one request at a time',
  'api/transport-undici.ts': 'many requests (undici)',
  'pacing/pacer.ts': 'the rate budget, with the first request',
  'pacing/open.ts': 'the shared rate budget, with the first request',
  'pacing/redis-pacer.ts': 'a budget in Redis',
  'sandbox.ts': 'the emulator, through its door (--sandbox, trk sandbox)',
  '@trk/sandbox/embedded.ts': 'the embedded emulator',
  '@trk/sandbox/http/server.ts': "the emulator's server",
  '@trk/sandbox/foreground.ts': 'the emulator in the foreground (trk sandbox start, trk-sandbox)',
  'mirror/open.ts': 'the mirror (sync, --offline)',
  'store/sqlite.ts': 'a mirror in a file (libsql)',
  'store/postgres.ts': 'a mirror in PostgreSQL',
  'items/progress.ts': 'the progress line, for a terminal',
  'output/pager.ts': 'the pager, for a terminal',
  'output/jq.ts': '--jq',
  'carriers/lookup.ts': 'the carrier list, for names rather than codes',
  'context/prompter.ts': 'questions, for a terminal',
  'items/command.ts': 'the item engine, for `trk list` of many numbers',
  'items/source.ts': "a file or a pipe of input (Node's file streams)",
  'items/read.ts': "reading rows of input (Node's streams)",
  'items/read-json.ts': 'JSON input',
  'items/runs.ts': "journals of runs, for a file of numbers (Node's file streams)",
  'items/journal.ts': 'the journal of a run that writes',
  'items/sent.ts': 'what earlier runs of a file confirmed',
  'items/rows-log.ts': 'the rows log of a run (node:readline)',
  'items/leftovers.ts': 'pruning old files of runs (node:fs)',
  'config/profiles.ts': 'writing the profile file (conf)',
  'carriers/shipped.ts': 'the lists shipped with trk (node:fs/promises)',
  'carriers/lists.ts': 'the carrier lists, fetched and cached (node:fs/promises)',
  'mirror/sync.ts': "the mirror's sync",
  'mirror/notify/sink.ts': 'the rules run by the listener (--notify), and mail',
  'report/html.ts': 'the HTML report (echarts)',
  'webhook/saved.ts': 'saved notifications (node:fs/promises)',
  'webhook/replay.ts': 'replaying saved notifications (node:fs/promises)',
  'output/tracking-page.ts': "a parcel's page, for a terminal or -o text",
  'output/summary.ts': "a parcel's summary, for -o text",
  'commands/common/watch.ts': '--watch',
  'commands/list/watch.ts': '--watch',
});

/**
 * What the store (src/store/) may import of trk outside itself: leaves that import nothing of a layer. The typed
 * errors and Node's built-ins; the key kept out of output (a PostgreSQL password); a PostgreSQL address as the
 * settings read it and the private mode of customers' files (config/, both leaves); the service's vocabulary and
 * its records (the answers the mirror's rows are made of). Packages (libsql, postgres) and Node's modules are no
 * part of trk.
 */
const STORE_LEAVES = [
  'core/errors.ts',
  'core/clock.ts',
  'core/node.ts',
  'io/secrets.ts',
  'config/postgres-url.ts',
  'core/private-files.ts',
  '@trk/service/vocabulary.ts',
  '@trk/service/records.ts',
  '@trk/service/record-fields.ts',
  '@trk/service/times.ts',
].map(native);
/** Imports of the store that leave it for anything but its leaves. */
const storeReachingOut = (imports: readonly Import[]) =>
  imports.filter(
    (i) => top(i.from) === 'store' && isProduct(i.to) && top(i.to) !== 'store' && !STORE_LEAVES.includes(i.to),
  );
/** What the report may take of the store: its interface, never its SQL or its engines. */
const STORE_INTERFACE = path.join('store', 'types.ts');
/** The one reader of the service's list, and what other modules may take of its module. */
const LIST_READER = path.join('api', 'pages.ts');
const READER_EXPORTS = [
  'trackListPages',
  'TrackListPage',
  'TrackListQuery',
  'TrackListRead',
  'SendPage',
  'PagingError',
];
/** The service's model (it writes page_no into a body) and the emulator (it serves pages): no readers of the list. */
const SERVES_PAGES = (file: string) => ['@trk/service', '@trk/sandbox'].includes(top(file));

/**
 * Where a module of src/ pages through the service's list by itself (`items/x.ts:3 page_no: n`):
 *   - a `page_no` in an object other than the first page's (`page_no: 1`, a one-page probe), or a `page` other than
 *     1 given to a call that names 'gettracklist' (the engine's bodies: `requestBody('gettracklist', v, items,
 *     { page })`);
 *   - anything but the reader and its types taken from the reader's module (its paging, readPages, under it).
 */
function pagingOutsideReader(file: string, text: string): string[] {
  const from = label(file);
  if (from === LIST_READER || SERVES_PAGES(from)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const at = (node: ts.Node) => `${from}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const out: string[] = [];
  const notFirstPage = (p: ts.ObjectLiteralElementLike, names: readonly string[]) =>
    (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) &&
    ts.isIdentifier(p.name) &&
    names.includes(p.name.text) &&
    !(ts.isPropertyAssignment(p) && ts.isNumericLiteral(p.initializer) && p.initializer.text === '1');
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const pageNames =
        ts.isCallExpression(node.parent) && namesTrackList(node.parent) ? ['page_no', 'page'] : ['page_no'];
      for (const p of node.properties) if (notFirstPage(p, pageNames)) out.push(`${at(p)} ${p.getText(source)}`);
    }
    const spec = (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier;
    if (spec && ts.isStringLiteral(spec) && resolved(file, spec.text) === LIST_READER) {
      for (const name of importedNames(node as ts.ImportDeclaration | ts.ExportDeclaration)) {
        if (!READER_EXPORTS.includes(name)) out.push(`${at(node)} imports ${name} of ${LIST_READER}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const namesTrackList = (call: ts.CallExpression) =>
  call.arguments.some((a) => ts.isStringLiteralLike(a) && a.text === 'gettracklist');

/** The names an import or re-export takes (`*` for a whole module). */
function importedNames(node: ts.ImportDeclaration | ts.ExportDeclaration): string[] {
  const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
  if (ts.isImportDeclaration(node) && node.importClause?.name) return ['default'];
  if (!bindings || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)) return ['*'];
  return bindings.elements.map((e) => (e.propertyName ?? e.name).text);
}

describe('architecture', () => {
  it('reads the imports it checks', () => {
    expect(IMPORTS.length).toBeGreaterThan(300);
    expect(IMPORTS).toContainEqual({
      from: path.join('commands', 'items', 'run-items.ts'),
      to: path.join('items', 'command.ts'),
      kind: 'static',
    });
    expect(IMPORTS).toContainEqual({
      from: path.join('commands', 'list', 'list-run.ts'),
      to: path.join('items', 'command.ts'),
      kind: 'dynamic',
    });
    expect(IMPORTS).toContainEqual({
      from: path.join('items', 'run-memory.ts'),
      to: path.join('items', 'runs.ts'),
      kind: 'type',
    });
  });

  it('every import keeps to the order of layers, which names every folder and file at the top of src/', () => {
    const layers = Object.keys(MAY_IMPORT);
    expect(readdirSync(SRC).sort()).toEqual(layers.filter((l) => !PACKAGE_SOURCES.has(l)).sort());
    expect([...PACKAGE_SOURCES.keys()].sort()).toEqual(layers.filter((l) => l.startsWith('@trk/')).sort());
    expect(readdirSync(SRC).filter((name) => name.endsWith('.ts')).length).toBeLessThanOrEqual(MAX_ROOT_FILES);
    expect(namedOutOfOrder(MAY_IMPORT)).toEqual([]);
    expect(outOfOrder(IMPORTS).map(show)).toEqual([]);
  });

  it('would catch a layer importing upward, a layer named out of order, a folder left out (the checks work)', () => {
    const store = importsOf(path.join(SRC, 'store', 'x.ts'), "import { syncMirror } from '../mirror/sync.js';");
    expect(outOfOrder(store).map((i) => i.to)).toEqual([path.join('mirror', 'sync.ts')]);
    const core = importsOf(path.join(SRC, 'core', 'x.ts'), "import { IO } from '../io/io.js';");
    expect(outOfOrder(core).map((i) => i.to)).toEqual([path.join('io', 'io.ts')]);
    const root = importsOf(path.join(SRC, 'x.ts'), "import { main } from './cli.js';");
    expect(outOfOrder(root).map((i) => i.to)).toEqual(['cli.ts']);
    expect(namedOutOfOrder({ io: ['core'], core: ['io'] })).toEqual(['io → core']);
    expect(namedOutOfOrder({ core: [], io: ['core'] })).toEqual([]);
  });

  it("pacing is below api, and takes nothing of it: the service's vocabulary comes from @trk/service", () => {
    const used = IMPORTS.filter((i) => top(i.from) === 'pacing' && top(i.to) === 'api');
    expect(IMPORTS.some((i) => top(i.from) === 'pacing' && top(i.to) === '@trk/service')).toBe(true);
    expect(used.map(show)).toEqual([]);
  });

  it('@trk/service imports nothing of trk', () => {
    const outside = IMPORTS.filter(
      (i) => top(i.from) === '@trk/service' && isProduct(i.to) && top(i.to) !== '@trk/service',
    );
    expect(IMPORTS.filter((i) => top(i.from) === '@trk/service').length).toBeGreaterThan(2);
    expect(outside.map(show)).toEqual([]);
  });

  it('the emulator (@trk/sandbox) imports only the service package of the workspace', () => {
    const wrong = IMPORTS.filter(
      (i) => top(i.from) === '@trk/sandbox' && isProduct(i.to) && !['@trk/sandbox', '@trk/service'].includes(top(i.to)),
    );
    expect(IMPORTS.some((i) => top(i.from) === '@trk/sandbox' && top(i.to) === '@trk/service')).toBe(true);
    expect(wrong.map(show)).toEqual([]);
  });

  it('the packages never import the CLI: not their sources, tests or commands', () => {
    const files = readdirSync(PACKAGES).flatMap((dir) =>
      ['src', 'test', 'bin']
        .map((sub) => path.join(PACKAGES, dir, sub))
        .filter((at) => existsSync(at))
        .flatMap((at) => [...sourceFiles(at), ...binFiles(at)]),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => importsTheCli(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('would catch a package importing the CLI (the check itself works)', () => {
    const at = (...p: string[]) => path.join(PACKAGES, 'sandbox', ...p);
    // From packages/sandbox/<folder>/ to the root (written so, the repository's own self-containment check reads
    // these as the imports of a file three levels down, not of this one).
    const up = '../'.repeat(3);
    const errors = `import { TrkError } from '${up}src/core/errors.js';`;
    expect(importsTheCli(at('src', 'x.ts'), errors)).toHaveLength(1);
    const clock = `const c = await import('${up}src/core/clock.js');`;
    expect(importsTheCli(at('test', 'x.test.ts'), clock)).toHaveLength(1);
    expect(importsTheCli(at('bin', 'x.js'), `import { main } from '${up}lib/cli.js';`)).toHaveLength(1);
    expect(importsTheCli(at('src', 'x.ts'), "import { main } from 'trk/lib/cli.js';")).toHaveLength(1);
    // Its own modules, the service's description and the repository's test helpers are not the CLI.
    const fine = [
      "import { clock } from './clock.js';",
      "import { LIMITS } from '@trk/service/vocabulary.js';",
      `import { testClock } from '${up}test/skipping-clock.js';`,
    ].join('\n');
    expect(importsTheCli(at('test', 'x.test.ts'), fine)).toEqual([]);
  });

  it("package.json: trk depends on its packages, the emulator on the service's description, nothing on trk", () => {
    type Manifest = { name: string; dependencies?: object; devDependencies?: object };
    const read = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
    const own = (m: Manifest) =>
      [...Object.keys(m.dependencies ?? {}), ...Object.keys(m.devDependencies ?? {})]
        .filter((n) => n === 'trk' || n.startsWith('@trk/'))
        .sort();
    const manifests = readdirSync(PACKAGES).map((dir) => read(path.join(PACKAGES, dir)));
    expect(Object.fromEntries(manifests.map((m) => [m.name, own(m)]))).toEqual({
      '@trk/sandbox': ['@trk/service'],
      '@trk/service': [],
    });
    // trk's build bundles them (rollup.config.mjs): development dependencies, never fetched by its users.
    const trk = read(ROOT);
    const packages = [...PACKAGE_SOURCES.keys()].sort();
    expect(Object.keys(trk.devDependencies ?? {}).filter((n) => n.startsWith('@trk/'))).toEqual(packages);
    expect(Object.keys(trk.dependencies ?? {}).filter((n) => n.startsWith('@trk/'))).toEqual([]);
  });

  it("the store is persistence alone: it imports nothing of trk but its leaves; the mirror's work imports it", () => {
    const out = IMPORTS.filter((i) => top(i.from) === 'store' && isProduct(i.to) && top(i.to) !== 'store');
    // It does take leaves (errors, the service's records), and the mirror's work takes it.
    expect(out.length).toBeGreaterThan(5);
    expect(IMPORTS.some((i) => top(i.from) === 'mirror' && top(i.to) === 'store')).toBe(true);
    expect(storeReachingOut(IMPORTS).map(show)).toEqual([]);
  });

  it('the report takes of the store its interface alone (store/types.ts)', () => {
    const reaching = IMPORTS.filter((i) => top(i.from) === 'report' && top(i.to) === 'store');
    expect(reaching.length).toBeGreaterThan(0);
    expect(reaching.filter((i) => i.to !== STORE_INTERFACE).map(show)).toEqual([]);
  });

  it('would catch the store reaching out (the check itself works)', () => {
    const bad = importsOf(
      path.join(SRC, 'store', 'x.ts'),
      [
        "import type { ApiClient } from '../api/client.js';",
        "import type { Context } from '../context/context.js';",
        "import { claimMirror } from '../mirror/open.js';",
        "import { ago } from '../output/times.js';",
        "import type { Sink } from '../webhook/listen.js';",
        "import { settingsOf } from '../config/settings.js';",
        "import { TrkError } from '../core/errors.js';",
        "import { recordFields } from '@trk/service/records.js';",
        "import { keepPrivate } from '../core/private-files.js';",
        "import { KEY } from './sql.js';",
        "import Database from 'libsql';",
      ].join('\n'),
    );
    expect(storeReachingOut(bad).map((i) => i.to)).toEqual(
      [
        'api/client.ts',
        'context/context.ts',
        'mirror/open.ts',
        'output/times.ts',
        'webhook/listen.ts',
        'config/settings.ts',
      ].map(native),
    );
    // The store reaching into the mirror's work is a layer broken too; the mirror taking the store is not.
    expect(outOfOrder(bad).map((i) => i.to)).toEqual(
      ['api/client.ts', 'context/context.ts', 'mirror/open.ts', 'output/times.ts', 'webhook/listen.ts'].map(native),
    );
    const mirror = importsOf(path.join(SRC, 'mirror', 'x.ts'), "import { SqliteStore } from '../store/sqlite.js';");
    expect(outOfOrder(mirror)).toEqual([]);
  });

  it('commands reach the item engine through its entry points, never its chunking or input reading', () => {
    const ENTRY_POINTS = ['command.ts', 'run.ts', 'runs.ts', 'check.ts'].map((f) => path.join('items', f));
    const direct = IMPORTS.filter(
      (i) =>
        top(i.from) === 'commands' &&
        ((top(i.to) === 'items' && !ENTRY_POINTS.includes(i.to)) ||
          // A type of the engine's checks is fine; its code is the engine's.
          (i.to === path.join('items', 'check.ts') && i.kind !== 'type') ||
          /^csv-(parse|stringify)/.test(i.to)),
    );
    expect(direct.map(show)).toEqual([]);
  });

  it('the emulator routes and signs with its own code, and carriers never reach into it', () => {
    // The emulator may share the service's model (@trk/service: vocabulary, codes, records), never trk's reading of
    // it: its operation modules, its webhook signing, its carrier lists.
    const sandboxReadsProduct = (i: Import) =>
      top(i.from) === '@trk/sandbox' && isProduct(i.to) && !sandboxMayUse(i.to);
    const carriersReachIn = (i: Import) =>
      top(i.from) === 'carriers' && (top(i.to) === '@trk/sandbox' || i.to === 'sandbox.ts');
    const vocabulary = path.join('@trk/service', 'vocabulary.ts');
    expect(IMPORTS.some((i) => top(i.from) === '@trk/sandbox' && i.to === vocabulary)).toBe(true);
    const wrong = IMPORTS.filter((i) => sandboxReadsProduct(i) || carriersReachIn(i));
    expect(wrong.map(show)).toEqual([]);
  });

  it('completion reads the command tree it is given; its build step (in build/) imports the commands', () => {
    // The build step writes the completion scripts from the command tree (src/commands/registry.ts), so that they
    // always match the commands; completion/ works on the tree's description (spec.ts) alone.
    const BUILD_STEP = path.join('build', 'write-completions.ts');
    expect(IMPORTS.some((i) => i.from === BUILD_STEP && top(i.to) === 'commands')).toBe(true);
    expect(IMPORTS.filter((i) => top(i.from) === 'completion' && top(i.to) === 'commands').map(show)).toEqual([]);
  });

  it('product code reaches the emulator through its door (src/sandbox.ts) only, and never at start-up', () => {
    const crossing = IMPORTS.filter((i) => top(i.from) !== '@trk/sandbox' && top(i.to) === '@trk/sandbox');
    expect([...new Set(crossing.map((i) => i.from))]).toEqual(['sandbox.ts']);
    const throughDoor = IMPORTS.filter((i) => i.to === 'sandbox.ts');
    expect(throughDoor.length).toBeGreaterThan(2);
    expect(throughDoor.filter((i) => i.kind === 'static').map(show)).toEqual([]);
  });

  it('the webhook listener: reached through webhook/listen.ts, its parts never reach up to what assembles them', () => {
    const LISTENER = path.join('webhook', 'listener');
    const inside = (p: string) => p.startsWith(LISTENER + path.sep);
    const ASSEMBLY = ['lifecycle.ts', 'pipeline.ts'].map((f) => path.join(LISTENER, f));
    const wrong = IMPORTS.filter(
      (i) =>
        (inside(i.to) && top(i.from) !== 'webhook') ||
        (inside(i.from) && ASSEMBLY.includes(i.to) && i.from !== ASSEMBLY[0]) ||
        (top(i.from) === 'webhook' && (top(i.to) === '@trk/sandbox' || i.to === 'sandbox.ts')),
    );
    expect(IMPORTS.some((i) => i.from === ASSEMBLY[0] && i.to === ASSEMBLY[1])).toBe(true);
    expect(wrong.map(show)).toEqual([]);
  });

  it('import() only at the command-action boundary and for the heavy parts', () => {
    const dynamic = IMPORTS.filter((i) => i.kind === 'dynamic');
    expect(dynamic.length).toBeGreaterThan(0);
    const wrong = dynamic.filter((i) => !ACTION_BOUNDARY(i.from) && !HEAVY.has(i.to));
    expect(wrong.map(show)).toEqual([]);
  });

  it("Node's built-ins are taken in src/core/node.ts alone", () => {
    const taking = sourceFiles(SRC).filter((f) => /\bgetBuiltinModule\b/.test(readFileSync(f, 'utf8')));
    expect(taking.map((f) => path.relative(SRC, f))).toEqual([path.join('core', 'node.ts')]);
  });

  it('no ES import of what costs a namespace or a CommonJS wrapper (taken from node.ts, or required instead)', () => {
    // node:http's namespace loads the undici bundled with Node 22 and 24; an ES import of a CommonJS package has
    // Node 22 compile a WebAssembly lexer of its exports: memory that stays for the whole run (docs/performance.md).
    const costly = /^import (?!type\b)[^;]* from '(node:https?|libsql|commander|undici)';/m;
    const wrong = sourceFiles(SRC).filter((f) => costly.test(readFileSync(f, 'utf8')));
    expect(wrong.map((f) => path.relative(SRC, f))).toEqual([]);
    expect(costly.test("import { createServer, type Server } from 'node:http';")).toBe(true);
    expect(costly.test("import type { Server } from 'node:http';")).toBe(false);
  });

  it("one reader of the service's list: no other module pages through gettracklist", () => {
    const readers = IMPORTS.filter((i) => i.to === LIST_READER && i.kind !== 'type').map((i) => top(i.from));
    // The list's command, the item engine and the mirror's sync all read through it.
    expect(new Set(readers)).toEqual(new Set(['commands', 'items', 'mirror']));
    const paging = SOURCES.flatMap((f) => pagingOutsideReader(f, readFileSync(f, 'utf8')));
    expect(paging).toEqual([]);
  });

  it('would catch a module paging through the list by itself (the checks themselves work)', () => {
    const file = path.join(SRC, 'items', 'x.ts');
    const text = [
      "import { readPages, trackListPages, type TrackListPage } from '../api/pages.js';",
      "export { PageCheck } from '../api/pages.js';",
      "const probe = wireBody('gettracklist', version, { page_no: 1, number: 'TRK-PROBE' });",
      'for (let page = 1; ; page++) {',
      "  const body = requestBody('gettracklist', version, items, { page });",
      "  await client.call('gettracklist', wireBody('gettracklist', v, { ...filter, page_no: pageNo }));",
      '}',
      "const shown = { page: 2, label: 'not a request' };",
    ].join('\n');
    expect(pagingOutsideReader(file, text)).toEqual([
      `${path.join('items', 'x.ts')}:1 imports readPages of ${LIST_READER}`,
      `${path.join('items', 'x.ts')}:2 imports PageCheck of ${LIST_READER}`,
      `${path.join('items', 'x.ts')}:5 page`,
      `${path.join('items', 'x.ts')}:6 page_no: pageNo`,
    ]);
    // The reader itself, and the emulator serving pages, page as they must.
    expect(pagingOutsideReader(path.join(SRC, LIST_READER), text)).toEqual([]);
    expect(pagingOutsideReader(path.join(PACKAGE_SOURCES.get('@trk/sandbox')!, 'x.ts'), text)).toEqual([]);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
    const lengths = SOURCES.flatMap((f) => functionLengths(f, readFileSync(f, 'utf8')));
    expect(lengths.length).toBeGreaterThan(1000);
    const long = lengths.filter((f) => f.lines > MAX_FUNCTION_LINES).map((f) => `${f.name}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  it('would catch a long function, an arrow or a method as well as a declaration', () => {
    const body = Array.from({ length: 130 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const text = [
      `export function long() {\n${body}\n}`,
      `const arrow = () => {\n${body}\n};`,
      `class C {\n  m() {\n${body}\n  }\n}\n`,
    ].join('\n');
    const found = functionLengths(path.join(SRC, 'x.ts'), text).filter((f) => f.lines > MAX_FUNCTION_LINES);
    expect(found).toEqual([
      { name: 'x.ts:1 long', lines: 132 },
      { name: 'x.ts:133 arrow', lines: 132 },
      { name: 'x.ts:266 m', lines: 132 },
    ]);
  });

  it(`no class is over ${MAX_CLASS_LINES} lines, but those named with their reasons`, () => {
    const lengths = SOURCES.flatMap((f) => classLengths(f, readFileSync(f, 'utf8')));
    expect(lengths.length).toBeGreaterThan(50);
    const long = lengths.filter((c) => c.lines > MAX_CLASS_LINES && c.lines > (LONG_CLASSES.get(c.name)?.lines ?? 0));
    expect(long.map((c) => `${c.name}: ${c.lines} lines`)).toEqual([]);
    // An allowance names a class that is there and still over the limit: one split is taken out of the list.
    const named = new Map(lengths.map((c) => [c.name, c.lines]));
    const stale = [...LONG_CLASSES.keys()].filter((name) => (named.get(name) ?? 0) <= MAX_CLASS_LINES);
    expect(stale).toEqual([]);
    // The item engine has none over it.
    expect([...LONG_CLASSES.keys()].filter((name) => top(name) === 'items')).toEqual([]);
  });

  it('would catch a long class, a class expression as well as a declaration', () => {
    const body = Array.from({ length: 305 }, (_, i) => `  a${i} = ${i};`).join('\n');
    const text = [`export class Long {\n${body}\n}`, `const Anon = class {\n${body}\n};`, 'class Short {}'].join('\n');
    const found = classLengths(path.join(SRC, 'items', 'x.ts'), text).filter((c) => c.lines > MAX_CLASS_LINES);
    expect(found).toEqual([
      { name: `${path.join('items', 'x.ts')} Long`, lines: 307 },
      { name: `${path.join('items', 'x.ts')} Anon`, lines: 307 },
    ]);
  });

  it('no modules import values of one another in a cycle, but those named with their reasons', () => {
    const cycles = valueCycles(IMPORTS);
    expect(cycles.filter((c) => !VALUE_CYCLES.has(c))).toEqual([]);
    // An allowance names a cycle that is still there, and none of the item engine.
    expect([...VALUE_CYCLES.keys()].filter((c) => !cycles.includes(c))).toEqual([]);
    expect([...VALUE_CYCLES.keys()].filter((c) => c.split(' ↔ ').some((m) => top(m) === 'items'))).toEqual([]);
  });

  it('would catch a cycle of values, static or lazy, of two modules or more, and not one of types', () => {
    const at = (name: string) => path.join(SRC, 'items', name);
    const files: Record<string, string[]> = {
      'a.ts': ["import { b } from './b.js';"],
      'b.ts': ["import type { A } from './a.js';"],
      'c.ts': ["import { d } from './d.js';"],
      'd.ts': ["const { c } = await import('./c.js');"],
      'e.ts': ["import { f } from './f.js';"],
      'f.ts': ["export { g } from './g.js';"],
      'g.ts': ["import { e, type E } from './e.js';", "import { a } from './a.js';"],
      'h.ts': ["type H = typeof import('./i.js');"],
      'i.ts': ["import { h } from './h.js';"],
    };
    const imports = Object.entries(files).flatMap(([name, lines]) => importsOf(at(name), lines.join('\n')));
    const m = (name: string) => path.join('items', name);
    expect(valueCycles(imports)).toEqual([
      [m('c.ts'), m('d.ts')].join(' ↔ '),
      [m('e.ts'), m('f.ts'), m('g.ts')].join(' ↔ '),
    ]);
  });

  it('would catch a violation (the checks themselves work)', () => {
    const file = path.join(SRC, 'items', 'x.ts');
    const bad = importsOf(
      file,
      [
        "import { runList } from '../commands/list/list.js';",
        "const s = await import('@trk/sandbox/http/server.js');",
        "import type { A } from './chunker.js';",
        "const p = await import('./plan.js');",
      ].join('\n'),
    );
    expect(bad).toEqual([
      { from: path.join('items', 'x.ts'), to: path.join('commands', 'list', 'list.ts'), kind: 'static' },
      { from: path.join('items', 'x.ts'), to: path.join('@trk/sandbox', 'http', 'server.ts'), kind: 'dynamic' },
      { from: path.join('items', 'x.ts'), to: path.join('items', 'chunker.ts'), kind: 'type' },
      { from: path.join('items', 'x.ts'), to: path.join('items', 'plan.ts'), kind: 'dynamic' },
    ]);
    // A dynamic import of a part that is not heavy, outside the action boundary, is refused; in a declaration it
    // is not.
    expect(bad.filter((i) => i.kind === 'dynamic' && !ACTION_BOUNDARY(i.from) && !HEAVY.has(i.to)).map(show)).toEqual([
      `${path.join('items', 'x.ts')} → ${path.join('items', 'plan.ts')} (dynamic)`,
    ]);
    expect(ACTION_BOUNDARY(path.join('commands', 'items', 'register.ts'))).toBe(true);
    expect(ACTION_BOUNDARY(path.join('commands', 'items', 'shared.ts'))).toBe(false);
    expect(ACTION_BOUNDARY(path.join('commands', 'notify', 'run.ts'))).toBe(true);
    // api reaching into output or config is a layer broken.
    const api = importsOf(
      path.join(SRC, 'api', 'x.ts'),
      ["import { sanitize } from '../output/sanitize.js';", "import { t } from '../config/timeout.js';"].join('\n'),
    );
    expect(outOfOrder(api).map((i) => i.to)).toEqual([
      path.join('output', 'sanitize.ts'),
      path.join('config', 'timeout.ts'),
    ]);
    // The emulator routing with the product's table or signing with its code is refused; the vocabulary is not.
    const emulator = importsOf(
      path.join(PACKAGE_SOURCES.get('@trk/sandbox')!, 'x.ts'),
      [
        "import { OPERATION_TABLE } from '@trk/service/operations/index.js';",
        `import { sign } from '${'../'.repeat(3)}src/webhook/verify.js';`,
        "import { LIMITS } from '@trk/service/vocabulary.js';",
        "import { clock } from './clock.js';",
      ].join('\n'),
    );
    expect(emulator.filter((i) => isProduct(i.to) && !sandboxMayUse(i.to)).map((i) => i.to)).toEqual([
      path.join('@trk/service', 'operations', 'index.ts'),
      path.join('webhook', 'verify.ts'),
    ]);
    // A layer of the CLI taking the emulator but through its door, or the service's description taking the
    // emulator, is out of order.
    const context = importsOf(path.join(SRC, 'context', 'x.ts'), "import { startSandbox } from '@trk/sandbox';");
    expect(outOfOrder(context).map((i) => i.to)).toEqual([path.join('@trk/sandbox', 'index.ts')]);
    const service = importsOf(
      path.join(PACKAGE_SOURCES.get('@trk/service')!, 'x.ts'),
      `import { x } from '${'../'.repeat(2)}sandbox/src/x.js';`,
    );
    expect(outOfOrder(service).map((i) => i.to)).toEqual([path.join('@trk/sandbox', 'x.ts')]);
  });
});

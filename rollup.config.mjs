// The bundle bin/trk.js loads (lib/), made from the compiled modules (dist/) after `tsc`. One-shot commands are
// run in shell loops, and Node spends some 0.1 ms on every module file it loads (resolving, reading, linking):
// the ~65 files of `trk info N` cost 4-6 ms on Node 22 and 24 and 11 ms on Node 20. Rollup keeps what is loaded
// lazily (import()) in chunks of its own, so a command still loads only what it uses, and merges the small chunks
// that would otherwise split the code shared by commands into dozens of files. Dependencies stay in node_modules.
// Every chunk sits at the top of lib/, one level below the package root, as src/package-files.ts expects.
// trk's own packages (packages/, npm workspaces: @trk/service, @trk/sandbox) are bundled as its modules are, from
// their compiled dist/: an installed trk carries no workspace and fetches nothing for them, and start-up loads no
// more files for them (the emulator stays in lazy chunks of its own).

import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

rmSync(new URL('./lib/', import.meta.url), { recursive: true, force: true });

/** One of trk's own packages (`@trk/service/vocabulary.js`), bundled rather than imported from node_modules. */
const ownPackage = (id) => id.startsWith('@trk/');

export default {
  input: { cli: 'dist/cli.js', 'help-pages': 'dist/help-pages.js' },
  // Packages and Node's modules are imported from where they are installed; trk's own are bundled.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !ownPackage(id),
  output: {
    dir: 'lib',
    format: 'es',
    // Chunks under 30 kB are merged into others where that runs no module's code earlier than it would run.
    experimentalMinChunkSize: 30_000,
    // Named by content: a merged chunk holds modules of several commands, so no module's name would say what it is.
    chunkFileNames: 'chunk-[hash].js',
    // `trk --help` loads this module alone (bin/trk.js): it is kept out of the chunks the commands share. The
    // progress line too, which one-shot commands never show: small chunks of modules without side effects may
    // otherwise be merged with any other, such as the item fields every `trk info N` loads. Their imports stay
    // where they are (onlyExplicitManualChunks): a manual chunk would otherwise take in what it imports.
    manualChunks: (id) =>
      id.endsWith('/dist/help-pages.js')
        ? 'help-pages'
        : id.endsWith('/dist/items/progress.js')
          ? 'progress'
          : undefined,
    onlyExplicitManualChunks: true,
    generatedCode: 'es2015',
  },
  plugins: [
    {
      // @trk/... as Node resolves it (the workspace's link in node_modules, the package's exports): its dist/.
      name: 'own-packages',
      resolveId: (id) => (ownPackage(id) ? fileURLToPath(import.meta.resolve(id)) : null),
    },
    {
      // data/ beside lib/: the service's reference lists, which @trk/service finds one level above its module
      // (packages/service/src/reference-lists.ts), as the bundle's chunks are.
      name: 'reference-lists',
      writeBundle() {
        rmSync(new URL('./data/', import.meta.url), { recursive: true, force: true });
        cpSync(new URL('./packages/service/data/', import.meta.url), new URL('./data/', import.meta.url), {
          recursive: true,
        });
      },
    },
    {
      // lib/modules.json: the compiled modules (dist/...) each chunk holds, for the tests of what a command loads.
      name: 'modules-manifest',
      generateBundle(_options, bundle) {
        const chunks = Object.fromEntries(
          Object.values(bundle)
            .filter((c) => c.type === 'chunk')
            .map((c) => [
              c.fileName,
              Object.keys(c.modules).map((id) => path.relative(root, id).split(path.sep).join('/')),
            ]),
        );
        this.emitFile({ type: 'asset', fileName: 'modules.json', source: `${JSON.stringify(chunks, null, 1)}\n` });
      },
    },
  ],
  onwarn(warning, warn) {
    // Cycles among the modules (commands and their declarations) are resolved by Node as they are in dist/.
    if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
  },
};

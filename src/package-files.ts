// Files of the package that trk reads while it runs (package.json, data/, the help pages the build writes), by
// their path from the package root. This module sits at the top of src/, so it is one level below the root
// wherever it runs from: src/ (the tests), dist/ (the compiled modules) or lib/ (the bundle bin/trk.js loads,
// whose chunks all sit at the top of lib/; see rollup.config.mjs). Paths computed elsewhere would differ by
// how deep their module sits in src/.

export function packageFile(relative: string): URL {
  return new URL(`../${relative}`, import.meta.url);
}

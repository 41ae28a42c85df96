// The service's two reference lists, as its res URL publishes them (`{res_url}/asset/carrier/info/<file>`), kept
// byte for byte in data/ at this package's root: the emulator's catalogue, and what `trk --sandbox` resolves
// carrier and country names against. Found from this module, which sits one level below a package root wherever
// it runs from: src/ (the tests), dist/ (compiled), or lib/ of trk's bundle, beside which trk's build copies data/
// (rollup.config.mjs).

/** The lists by the file names the res URL publishes them under. */
export const REFERENCE_LIST_FILES = { carriers: 'apicarrier.all.json', countries: 'country.all.json' } as const;
export type ReferenceListName = keyof typeof REFERENCE_LIST_FILES;

/** Where the list's file is. */
export function referenceListFile(name: ReferenceListName): URL {
  return new URL(`../data/${REFERENCE_LIST_FILES[name]}`, import.meta.url);
}

// The service's two reference lists as shipped with trk in data/ (byte for byte the service's files): what
// `--sandbox` resolves carrier and country names against, with no network and no cache. Read here, not through
// the emulator: the product reads the files, the emulator (src/sandbox/reference-lists.ts) serves them.

import { readFile } from 'node:fs/promises';
import { packageFile } from '../package-files.js';
import { LISTS, type ListName } from './lists.js';

const parsed = new Map<ListName, Promise<unknown[]>>();

/** The shipped list, parsed once per process; a fresh array of shared entries (do not change the entries). */
export async function shippedList(name: ListName): Promise<unknown[]> {
  let items = parsed.get(name);
  if (items === undefined) {
    items = readFile(packageFile(`data/${LISTS[name].file}`), 'utf8').then((text) => JSON.parse(text) as unknown[]);
    parsed.set(name, items);
  }
  return [...(await items)];
}

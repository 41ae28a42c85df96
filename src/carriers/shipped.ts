// The service's two reference lists as shipped with trk (byte for byte the service's files, kept by @trk/service): what
// `--sandbox` resolves carrier and country names against, with no network and no cache. Read here, not through
// the emulator: the product reads the files, the emulator (@trk/sandbox/reference-lists.ts) serves them.

import { readFile } from 'node:fs/promises';
import { referenceListFile } from '@trk/service/reference-lists.js';
import type { ListName } from './lists.js';

const parsed = new Map<ListName, Promise<unknown[]>>();

/** The shipped list, parsed once per process; a fresh array of shared entries (do not change the entries). */
export async function shippedList(name: ListName): Promise<unknown[]> {
  let items = parsed.get(name);
  if (items === undefined) {
    items = readFile(referenceListFile(name), 'utf8').then((text) => JSON.parse(text) as unknown[]);
    parsed.set(name, items);
  }
  return [...(await items)];
}

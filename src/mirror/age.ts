// How old the mirror is, for the status line of every offline read: from the end of the last complete sync
// (the time trk keeps, on the service's clock under --sandbox).

import { ago } from '../output/times.js';
import type { Store } from '../store/types.js';

/** `mirror synced 3h ago (2026-06-01T18:00:00Z)`, or a warning when no sync ever finished. */
export async function mirrorAgeLine(store: Store, now: number): Promise<string> {
  const synced = await store.state('synced_at');
  if (synced === undefined) return `the mirror ${store.location} has not been synced completely: run "trk sync"`;
  return `mirror synced ${ago(Date.parse(synced), now)} (${synced.replace(/\.\d{3}Z$/, 'Z')})`;
}

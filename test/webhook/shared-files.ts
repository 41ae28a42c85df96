// Paths of the shared fixtures and reference lists (read in place, never copied into the project).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = path.resolve(projectRoot, '../shared');
export const FIXTURES = path.join(SHARED, 'fixtures');
export const REFERENCE = path.join(SHARED, 'reference');

/** A fixture's exact bytes. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

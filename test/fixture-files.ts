// The one place that resolves test fixtures: recorded answers, documentation examples, webhook bodies and the
// service's public reference lists, kept with their exact bytes under test/fixtures/ (see its README).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const REFERENCE = path.join(FIXTURES, 'reference');

/** Absolute path of a fixture, given relative to test/fixtures/ (`'real-v1/error_response.json'`). */
export function fixturePath(relative: string): string {
  return path.join(FIXTURES, relative);
}

/** A fixture's exact bytes. */
export function fixtureBytes(relative: string): Buffer {
  return readFileSync(fixturePath(relative));
}

/** A fixture parsed as JSON. */
export function fixtureJson<T = any>(relative: string): T {
  return JSON.parse(readFileSync(fixturePath(relative), 'utf8')) as T;
}

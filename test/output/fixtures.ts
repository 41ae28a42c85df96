// Reads the shared recorded responses (never copied into the project).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.resolve(projectRoot, '../shared/fixtures');

export function fixture(name: string): any {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
}

/** The accepted items of a fixture, whether it has an envelope or not (v1 documentation examples do not). */
export function accepted(name: string): unknown[] {
  const j = fixture(name);
  return (j.data ?? j).accepted as unknown[];
}

export const V2_DETAILS = [
  'doc-v2/gettrackinfo_correios_2151.json',
  'doc-v2/gettrackinfo_exception_returning.json',
  'doc-v2/gettrackinfo_yanwen_190012.json',
] as const;

// Recorded responses for the output tests, read through the one fixture helper.
import { fixtureJson } from '../fixture-files.js';

export function fixture(name: string): any {
  return fixtureJson(name);
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

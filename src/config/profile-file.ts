// Reading the profiles file without conf. Every command that talks to the service reads it before its first
// request, and conf (which profiles.ts uses to write it) costs some 55 ms of imports; reading is one small
// JSON file. The file is read as conf reads it: missing (or its folder missing) is no profiles, and nothing
// is created; a file that cannot be read or parsed is an error naming the file and never quoting it (it holds
// API keys).

import path from 'node:path';
import { fileReason, UsageError } from '../core/errors.js';
import { CARRIER_ALIAS_FIELD, CONFIG_KEYS, CONFIG_KEY_FIELD, type ConfigKey, type Profile } from './keys.js';
import { configDir } from './paths.js';
import { keepPrivate, type Warn } from '../core/private-files.js';
import { nodeFs } from '../core/node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { readFileSync } = nodeFs();

/** What settings resolution and completion read of the profiles. */
export interface ProfileReader {
  get(name: string): Profile | undefined;
  currentName(): string | undefined;
  /** Profile names, sorted. */
  list(): string[];
}

/** The profiles file: `<configDir>/config.json`. */
export function profileFile(env: NodeJS.ProcessEnv): string {
  return path.join(configDir(env), 'config.json');
}

export { fileReason } from '../core/errors.js';

/**
 * The file could not be read. It holds API keys, so nothing of its content is ever shown: a JSON parser's
 * message quotes the text around the fault, which can be the key itself.
 */
export function profileFileError(file: string, err: unknown): UsageError {
  if (err instanceof SyntaxError) {
    return new UsageError(
      `the config file ${file} is not valid JSON`,
      'correct it in an editor, or move it away and run "trk auth login" to write a new one',
    );
  }
  return new UsageError(
    `cannot read the config file ${file}: ${fileReason(err)}`,
    'make it readable and writable by you alone (mode 0600)',
  );
}

/**
 * A profile as stored (`{"base-url": ..., "api-key": ...}`) in the fields settings use; undefined when not an object.
 */
export function profileFromStored(stored: unknown): Profile | undefined {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return undefined;
  const out: Profile = {};
  for (const key of CONFIG_KEYS) {
    const value = (stored as Record<string, unknown>)[key];
    if (typeof value !== 'string') continue;
    // Typed values (api-version, output) are checked where they are used, naming the profile.
    (out as Record<(typeof CONFIG_KEY_FIELD)[ConfigKey], string>)[CONFIG_KEY_FIELD[key]] = value;
  }
  const aliases = (stored as Record<string, unknown>)[CARRIER_ALIAS_FIELD];
  if (aliases !== null && typeof aliases === 'object' && !Array.isArray(aliases)) {
    const valid = Object.entries(aliases).filter(
      (e): e is [string, number] => Number.isSafeInteger(e[1]) && (e[1] as number) >= 0,
    );
    if (valid.length > 0) out.carrierAliases = Object.fromEntries(valid);
  }
  return out;
}

/**
 * The profiles file holds API keys: as ssh does with a private key, a file others may read (or a folder others may
 * enter) is not left so. It is set to 0600 (the folder to 0700), and `warn` says so, once: the next run finds it
 * private (private-files.ts).
 */
export function keepProfilesPrivate(file: string, warn: Warn): void {
  keepPrivate(path.dirname(file), 'config folder', warn, 'API keys');
  keepPrivate(file, 'config file', warn, 'API keys');
}

/**
 * The profiles as they are on disk now, read once. Throws a UsageError for a file that cannot be read. A file
 * others can read is made private, with a warning (keepProfilesPrivate).
 */
export function readProfiles(env: NodeJS.ProcessEnv, warn: (line: string) => void = () => {}): ProfileReader {
  const file = profileFile(env);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
    keepProfilesPrivate(file, warn);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw profileFileError(file, err);
  }
  const root = data !== null && typeof data === 'object' ? (data as { current?: unknown; profiles?: unknown }) : {};
  const profiles =
    root.profiles !== null && typeof root.profiles === 'object' ? (root.profiles as Record<string, unknown>) : {};
  return {
    get: (name) => (Object.hasOwn(profiles, name) ? profileFromStored(profiles[name]) : undefined),
    currentName: () => (typeof root.current === 'string' && root.current !== '' ? root.current : undefined),
    list: () => Object.keys(profiles).sort(),
  };
}

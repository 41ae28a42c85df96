// Where trk keeps its files, after the XDG base directory convention, each overridable for tests and
// unusual setups. Relative XDG values are ignored, as the convention requires. How private the folders and what
// they hold are: private-files.ts.

import { homedir } from 'node:os';
import path from 'node:path';

type Env = NodeJS.ProcessEnv;

/** Profiles and settings: `TRK_CONFIG_DIR` || `$XDG_CONFIG_HOME/trk` || `~/.config/trk`. */
export function configDir(env: Env): string {
  return resolveDir(env, 'TRK_CONFIG_DIR', 'XDG_CONFIG_HOME', ['.config']);
}

/**
 * Journals of bulk runs and other state worth keeping: `TRK_STATE_DIR` || `$XDG_STATE_HOME/trk` ||
 * `~/.local/state/trk`.
 */
export function stateDir(env: Env): string {
  return resolveDir(env, 'TRK_STATE_DIR', 'XDG_STATE_HOME', ['.local', 'state']);
}

/** Downloaded reference lists: `TRK_CACHE_DIR` || `$XDG_CACHE_HOME/trk` || `~/.cache/trk`. */
export function cacheDir(env: Env): string {
  return resolveDir(env, 'TRK_CACHE_DIR', 'XDG_CACHE_HOME', ['.cache']);
}

/**
 * The account's mirror and other data worth keeping: `TRK_DATA_DIR` || `$XDG_DATA_HOME/trk` || `~/.local/share/trk`.
 */
export function dataDir(env: Env): string {
  return resolveDir(env, 'TRK_DATA_DIR', 'XDG_DATA_HOME', ['.local', 'share']);
}

function resolveDir(env: Env, own: string, xdg: string, fallback: string[]): string {
  const explicit = env[own];
  if (explicit) return path.resolve(explicit);
  const base = env[xdg];
  if (base && path.isAbsolute(base)) return path.join(base, 'trk');
  return path.join(env.HOME || homedir(), ...fallback, 'trk');
}

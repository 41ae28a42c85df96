// Named profiles in one file on conf: `<configDir>/config.json`, mode 0600 in a 0700 folder, since it can
// hold API keys. In the file, settings use the names `trk config` shows (base-url, api-key, ...):
//   { "current": "work", "profiles": { "work": { "base-url": "...", "api-key": "..." } } }
// This module loads conf; import it lazily, for writes: reading goes through profile-file.ts, without conf.

import path from 'node:path';
import Conf from 'conf';
import { TrkError, UsageError } from '../core/errors.js';
import {
  CARRIER_ALIAS_FIELD,
  CONFIG_KEYS,
  CONFIG_KEY_FIELD,
  isObjectWord,
  type ConfigKey,
  type Profile,
} from './keys.js';
import { configDir } from './paths.js';
import { ensureFolder, PRIVATE_FILE_MODE } from '../core/private-files.js';
import { fileReason, keepProfilesPrivate, profileFileError, profileFromStored } from './profile-file.js';

export type { Profile } from './keys.js';

export interface ProfileStore {
  /** Absolute path of the file, for `trk config path`. */
  readonly path: string;
  get(name: string): Profile | undefined;
  /** Merge `patch` into the profile (created when missing); a field set to undefined is removed. */
  set(name: string, patch: Partial<Profile>): void;
  /** True when the profile existed. Removing the current profile clears the choice. */
  remove(name: string): boolean;
  /** Profile names, sorted. */
  list(): string[];
  /** The profile chosen with `trk config use` (or `auth login`), if any. */
  currentName(): string | undefined;
  setCurrent(name: string): void;
}

type StoredProfile = Partial<Record<ConfigKey, string>> & { [CARRIER_ALIAS_FIELD]?: Readonly<Record<string, number>> };
interface StoreShape extends Record<string, unknown> {
  current?: string;
  profiles?: Record<string, StoredProfile>;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Throws a UsageError unless `name` can name a profile. */
export function checkProfileName(name: string): string {
  if (PROFILE_NAME.test(name) && !isObjectWord(name)) return name;
  throw new UsageError(
    `invalid profile name ${JSON.stringify(name)}`,
    'use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit; not a word of JavaScript ' +
      'objects such as constructor)',
  );
}

/** The profiles file for reading and writing; one others could read is made private first (keepProfilesPrivate). */
export function openProfileStore(env: NodeJS.ProcessEnv, warn: (line: string) => void = () => {}): ProfileStore {
  const dir = ensureFolder(configDir(env));
  const file = path.join(dir, 'config.json');
  keepProfilesPrivate(file, warn);
  let conf: Conf<StoreShape>;
  try {
    conf = new Conf<StoreShape>({
      cwd: dir,
      configName: 'config',
      configFileMode: PRIVATE_FILE_MODE,
      // Profile names may contain dots; they are keys, not paths.
      accessPropertiesByDotNotation: false,
    });
  } catch (err) {
    throw profileFileError(file, err);
  }
  /** conf writes the whole file on every change; a full disk or a read-only folder is reported with the path. */
  const save = (change: () => void): void => {
    try {
      change();
    } catch (err) {
      throw new TrkError(`cannot save the config file ${file}: ${fileReason(err)}`, {
        hint: 'free space, or make the config folder writable (TRK_CONFIG_DIR moves it)',
        cause: err,
      });
    }
  };

  const profiles = (): Record<string, StoredProfile> => {
    const p = conf.get('profiles');
    return p !== null && typeof p === 'object' ? { ...p } : {};
  };

  return {
    path: conf.path,
    get(name) {
      const all = profiles();
      return Object.hasOwn(all, name) ? profileFromStored(all[name]) : undefined;
    },
    set(name, patch) {
      checkProfileName(name);
      const all = profiles();
      const next: StoredProfile = { ...(Object.hasOwn(all, name) ? all[name] : {}) };
      for (const key of CONFIG_KEYS) {
        const field = CONFIG_KEY_FIELD[key];
        if (!(field in patch)) continue;
        const value = patch[field];
        if (value === undefined) delete next[key];
        else next[key] = value as string;
      }
      if ('carrierAliases' in patch) {
        const aliases = patch.carrierAliases;
        if (aliases === undefined || Object.keys(aliases).length === 0) delete next[CARRIER_ALIAS_FIELD];
        else next[CARRIER_ALIAS_FIELD] = aliases;
      }
      all[name] = next;
      save(() => conf.set('profiles', all));
    },
    remove(name) {
      const all = profiles();
      if (!Object.hasOwn(all, name)) return false;
      delete all[name];
      save(() => {
        conf.set('profiles', all);
        if (conf.get('current') === name) conf.delete('current');
      });
      return true;
    },
    list() {
      return Object.keys(profiles()).sort();
    },
    currentName() {
      const current = conf.get('current');
      return typeof current === 'string' && current !== '' ? current : undefined;
    },
    setCurrent(name) {
      checkProfileName(name);
      save(() => conf.set('current', name));
    },
  };
}

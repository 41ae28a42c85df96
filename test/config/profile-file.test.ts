// The profiles file holds API keys: one others can read is made private, with a warning, as ssh does.
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProfiles } from '../../src/config/profile-file.js';
import { openProfileStore } from '../../src/config/profiles.js';

function world(fileMode: number, dirMode: number) {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'trk-modes-')), 'config');
  mkdirSync(dir);
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ current: 'default', profiles: { default: { 'api-key': 'k'.repeat(32) } } }));
  chmodSync(file, fileMode);
  chmodSync(dir, dirMode);
  return { env: { TRK_CONFIG_DIR: dir }, dir, file };
}

const mode = (p: string) => statSync(p).mode & 0o777;

describe.skipIf(process.platform === 'win32' || process.getuid?.() === undefined)(
  'a profiles file others can read',
  () => {
    it('is set to 0600 in a 0700 folder when read, with one warning each; the next read is silent', () => {
      const { env, dir, file } = world(0o644, 0o755);
      const warnings: string[] = [];
      expect(readProfiles(env, (l) => warnings.push(l)).get('default')?.apiKey).toBe('k'.repeat(32));
      expect(mode(file)).toBe(0o600);
      expect(mode(dir)).toBe(0o700);
      expect(warnings).toEqual([
        `warning: the config folder ${dir} could be read by others (mode 0755), and it holds API keys: set to 0700`,
        `warning: the config file ${file} could be read by others (mode 0644), and it holds API keys: set to 0600`,
      ]);
      const again: string[] = [];
      readProfiles(env, (l) => again.push(l));
      expect(again).toEqual([]);
    });

    it('a group-readable file counts too; a private one is left alone', () => {
      const group = world(0o640, 0o700);
      const warnings: string[] = [];
      readProfiles(group.env, (l) => warnings.push(l));
      expect(warnings).toHaveLength(1);
      expect(mode(group.file)).toBe(0o600);
      const own = world(0o400, 0o700);
      readProfiles(own.env, (l) => warnings.push(l));
      expect(mode(own.file)).toBe(0o400);
      expect(warnings).toHaveLength(1);
    });

    it('is made private when opened for writing too', () => {
      const { env, file } = world(0o666, 0o777);
      const warnings: string[] = [];
      openProfileStore(env, (l) => warnings.push(l)).list();
      expect(mode(file)).toBe(0o600);
      expect(warnings).toHaveLength(2);
    });
  },
);

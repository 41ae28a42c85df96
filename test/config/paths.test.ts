import { describe, expect, it } from 'vitest';
import { cacheDir, configDir, stateDir } from '../../src/config/paths.js';

describe('paths', () => {
  it('own variable > XDG > home', () => {
    expect(configDir({ TRK_CONFIG_DIR: '/x/conf', XDG_CONFIG_HOME: '/xdg', HOME: '/home/u' })).toBe('/x/conf');
    expect(configDir({ XDG_CONFIG_HOME: '/xdg', HOME: '/home/u' })).toBe('/xdg/trk');
    expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/trk');
    expect(stateDir({ TRK_STATE_DIR: '/s' })).toBe('/s');
    expect(stateDir({ XDG_STATE_HOME: '/xs', HOME: '/home/u' })).toBe('/xs/trk');
    expect(stateDir({ HOME: '/home/u' })).toBe('/home/u/.local/state/trk');
    expect(cacheDir({ TRK_CACHE_DIR: '/c' })).toBe('/c');
    expect(cacheDir({ XDG_CACHE_HOME: '/xc', HOME: '/home/u' })).toBe('/xc/trk');
    expect(cacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/trk');
  });

  it('ignores relative XDG values and empty variables', () => {
    expect(configDir({ XDG_CONFIG_HOME: 'rel', HOME: '/home/u' })).toBe('/home/u/.config/trk');
    expect(configDir({ TRK_CONFIG_DIR: '', HOME: '/home/u' })).toBe('/home/u/.config/trk');
  });
});

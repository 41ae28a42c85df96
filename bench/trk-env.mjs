// The environment of a trk process a benchmark starts: its folders under `home`, the service's address and key,
// and nothing of the user's own settings. NODE_EXTRA_CA_CERTS is left out with the rest (it makes every Node 20
// start read a certificate bundle). The res URL points at a closed port: nothing here needs the carrier list.
import path from 'node:path';

export function trkEnv(home, { url, key }, extra = {}) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    ...(url === undefined ? {} : { TRK_BASE_URL: url }),
    TRK_API_KEY: key,
    TRK_CONFIG_DIR: path.join(home, 'config'),
    TRK_STATE_DIR: path.join(home, 'state'),
    TRK_CACHE_DIR: path.join(home, 'cache'),
    TRK_RES_URL: 'http://127.0.0.1:9',
    ...extra,
  };
}

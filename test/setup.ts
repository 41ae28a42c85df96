import { setClock } from '../src/core/clock.js';
import { SkippingClock } from './skipping-clock.js';

// Tests talk to the project's own emulator on 127.0.0.1 and nothing else. Any code path that would fall back
// to the real service's default addresses (the API or the carrier lists) gets a closed loopback port instead,
// and no proxy from the environment applies.
const CLOSED = 'http://127.0.0.1:9';
process.env.TRK_BASE_URL ??= CLOSED;
process.env.TRK_RES_URL ??= CLOSED;
for (const name of [
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'https_proxy',
  'http_proxy',
  'TRK_API_KEY',
  'TRK_API_KEY_FILE',
  'TRK_PROFILE',
]) {
  delete process.env[name];
}

// Time is the tests' clock: waits take no time and are counted (test/skipping-clock.ts).
setClock(new SkippingClock());

// Carrier detection of the simulated service: which carrier a number belongs to, and how sure the service is
// (register `origin`). Users and tests rely on these rules, so they are fixed and listed here.
//
// The number is upper-cased and hyphens are dropped before matching.
//
// Confident patterns (no code passed → origin 1):
//   ^[A-Z]{2}\d{9}[A-Z]{2}$   UPU S10 item: the postal operator of the country in the last two letters:
//                             CN 3011 China Post, US 21051 USPS, GB 11031 Royal Mail, AU 1151 Australia Post,
//                             BR 2151 Correios, DE 7041 DHL Paket, FR 6051 La Poste, JP 10021 Japan Post,
//                             CA 3041 Canada Post, SG 19131 SingPost, NL 14041 PostNL; suffix WW → 100004 TNT.
//                             Any other suffix is undetectable (no simulated operator).
//   ^1Z[0-9A-Z]{16}$          100002 UPS
//   ^YT\d{16}$                190012 Yanwen
//   ^LP\d{14}$, ^CAINIAO[0-9A-Z]+$   190271 Cainiao
//   ^4PX\d{10,13}$            190094 4PX
//   ^SF\d{12,13}$             100012 SF Express
//   ^JJD\d{18}$               7041 DHL Paket
//   ^GM\d{16,18}$             7047 DHL eCommerce US
//   ^9[2-5]\d{20}$            21051 USPS (22-digit domestic barcode)
//   ^\d{10}$                  100001 DHL Express
// Weak patterns (no code passed → origin 3, "possibly wrong"):
//   ^\d{12}$, ^\d{15}$        100003 FedEx
//   ^\d{14}$                  100010 DPD UK
//   ^\d{11}$                  100005 GLS
//   anything else of 8 or more characters with at least one digit → 190271 Cainiao
// Undetectable (→ undefined; the service answers -18019903):
//   numbers starting with XX; numbers without any digit; numbers shorter than 8 characters that match no
//   pattern above; S10-shaped numbers whose country suffix has no simulated postal operator.
// Direct Freight Express 101066, DHL Global Forwarding 100766, Toll 100009, the other carriers without a pattern
// and every generic carrier of the service's list (catalog.ts) are only reached by passing their code.
//
// A passed carrier code:
//   - known, and the number is not confidently claimed by another carrier → that carrier, origin 2
//     (including numbers detection could not place: an explicit code is taken at its word);
//   - known, and the number is S10-shaped and the passed carrier is a postal operator → origin 2
//     (any postal operator on a UPU item's route can track it);
//   - known but another carrier confidently claims the number → corrected to that carrier, origin 1;
//   - unknown (absent from the service's carrier list) → as if none was passed, but a weak guess keeps origin 3;
//   - 0 counts as not passed.

import { REGISTER_ORIGIN } from '@trk/service/vocabulary.js';
import type { SimCarrier } from './carriers.js';
import { findCarrier, postalCarrierOf } from './carriers.js';

export interface Detection {
  carrier: SimCarrier;
  origin: (typeof REGISTER_ORIGIN)[keyof typeof REGISTER_ORIGIN];
}

const S10 = /^[A-Z]{2}\d{9}[A-Z]{2}$/;

/** Confident patterns, checked in order; S10 is handled separately (its carrier depends on the suffix). */
const CONFIDENT: ReadonlyArray<readonly [RegExp, number]> = [
  [/^1Z[0-9A-Z]{16}$/, 100002],
  [/^YT\d{16}$/, 190012],
  [/^LP\d{14}$/, 190271],
  [/^CAINIAO[0-9A-Z]+$/, 190271],
  [/^4PX\d{10,13}$/, 190094],
  [/^SF\d{12,13}$/, 100012],
  [/^JJD\d{18}$/, 7041],
  [/^GM\d{16,18}$/, 7047],
  [/^9[2-5]\d{20}$/, 21051],
  [/^\d{10}$/, 100001],
];

const WEAK: ReadonlyArray<readonly [RegExp, number]> = [
  [/^\d{12}$/, 100003],
  [/^\d{15}$/, 100003],
  [/^\d{14}$/, 100010],
  [/^\d{11}$/, 100005],
];

const FALLBACK_CARRIER = 190271;
const FALLBACK_MIN_LENGTH = 8;

type Guess = { key: number; confident: boolean; s10: boolean } | undefined;

function normalise(number: string): string {
  return number.toUpperCase().replace(/-/g, '');
}

function guess(n: string): Guess {
  if (n.startsWith('XX') || !/\d/.test(n)) return undefined;
  if (S10.test(n)) {
    const suffix = n.slice(-2);
    if (suffix === 'WW') return { key: 100004, confident: true, s10: true };
    const post = postalCarrierOf(suffix);
    return post ? { key: post.key, confident: true, s10: true } : undefined;
  }
  for (const [re, key] of CONFIDENT) if (re.test(n)) return { key, confident: true, s10: false };
  for (const [re, key] of WEAK) if (re.test(n)) return { key, confident: false, s10: false };
  if (n.length >= FALLBACK_MIN_LENGTH) return { key: FALLBACK_CARRIER, confident: false, s10: false };
  return undefined;
}

/**
 * The carrier the service settles on for a number at registration (and for real-time queries), with the
 * register `origin`, or undefined when it cannot tell (-18019903). Rules: see the comment at the top.
 */
export function detectCarrier(number: string, passed?: number): Detection | undefined {
  const g = guess(normalise(number));
  const given = passed ? findCarrier(passed) : undefined;
  if (given) {
    if (!g?.confident || g.key === given.key || (g.s10 && given.postal)) {
      return { carrier: given, origin: REGISTER_ORIGIN.passedCorrect };
    }
    return { carrier: findCarrier(g.key) as SimCarrier, origin: REGISTER_ORIGIN.detectedOrCorrected };
  }
  if (!g) return undefined;
  const origin = g.confident ? REGISTER_ORIGIN.detectedOrCorrected : REGISTER_ORIGIN.guessed;
  return { carrier: findCarrier(g.key) as SimCarrier, origin };
}

// The life of a simulated parcel: where it goes, who carries it, and every event it will ever have, laid out
// in simulated time when the number is registered. The service learns the events as its clock passes them
// (see track-info.ts); nothing here reads a clock.
//
// Determinism: everything is drawn from one generator seeded by FNV-1a of `<NUMBER upper-cased>|<carrier>`,
// so a (number, carrier) pair always tells the same story. The registration time only shifts it, and the
// options (final carrier, param) only change the route and addresses, never the scenario.
//
// How the scenario is chosen: the first draw picks a scenario by weight (table SCENARIOS below: about 70%
// end delivered, the rest split over pickup points, failed deliveries, exceptions, returns, customs holds,
// parcels that go quiet, NotFound ones; the weights of the troubled ones multiplied by the carrier's trouble rate,
// carriers.ts), the next draws its variant (which failure, which exception, where
// the parcel goes quiet). `scenarioOf(number, carrier)` repeats only those draws, so it is cheap and always
// agrees with `planShipment`; `findNumber` walks `sampleNumber(carrier, i)` to find a number with a wanted
// outcome.
//
// Timing: the first event lies between 72 hours before and 36 hours after the registration time (60% before:
// people usually register a number once the seller has shipped it, so some history already exists; the
// rest are registered before the carrier's first scan, and start as NotFound). Events then follow at
// realistic gaps: at the world's norm a domestic parcel is delivered in about 2 to 7 days, an international one in
// 6 to 20; each carrier goes at its own pace (express carriers in a third of that, slow mail half as long again)
// and the line haul between two countries grows with their distance (laneFactor). Parcels
// that go quiet stop having events mid-route, which lets the service's 30-days-without-update expiry happen;
// `not_found` ones never get any event; `invalid_code` ones are answered "invalid number" from registration on.

import type { KeyStage } from '@trk/service/vocabulary.js';
import type { Address } from '@trk/service/types.js';
import type { SimCarrier } from './carriers.js';
import { findCarrier, postalCarrierOf } from './carriers.js';
import type { PhraseId } from './phrases.js';
import { PHRASES } from './phrases.js';
import type { City, Country } from './places.js';
import { COUNTRY_ISOS, countryOf, distanceKm } from './places.js';
import type { Rng } from './random.js';
import { rngFor } from './random.js';
import { HOUR_MS, MINUTE_MS } from './time.js';

export type ScenarioName =
  | 'delivered'
  | 'delivered_without_info'
  | 'delivered_without_pickup'
  | 'delivered_bare'
  | 'delivered_after_failure'
  | 'delivered_at_pickup_point'
  | 'awaiting_pickup'
  | 'out_for_delivery'
  | 'delivery_failure'
  | 'exception'
  | 'returned'
  | 'returning'
  | 'customs_hold'
  | 'stalled'
  | 'info_only'
  | 'expired'
  | 'not_found'
  | 'invalid_code';

/** One carrier event. Times are epoch ms of simulated time. */
export interface SimEvent {
  readonly atMs: number;
  /** Sub-status in v2.1 vocabulary (customs ones included; v2 answers map them). */
  readonly subStatus: string;
  readonly stage: KeyStage | null;
  /** Text in the provider's language. */
  readonly description: string;
  /** Which phrase the text is (for translations); absent in hand-made events, which then translate to themselves. */
  readonly phrase?: PhraseId;
  readonly location: string | null;
  readonly address: Address;
  /** Carrier code of the provider that reported it. */
  readonly provider: number;
}

export interface Shipment {
  readonly number: string;
  /** The registered (first, origin) carrier. */
  readonly carrier: number;
  /** Last-mile carrier of a postal shipment, 0 when none. */
  readonly finalCarrier: number;
  readonly param: string | null;
  readonly scenario: ScenarioName;
  readonly startMs: number;
  readonly originCountry: string;
  readonly destinationCountry: string;
  readonly shipperAddress: Address;
  readonly recipientAddress: Address;
  /**
   * Providers in route order: the registered carrier, then, for an international (or handed-over) postal
   * shipment, the destination operator. Answers list them the other way round (destination first).
   */
  readonly route: readonly number[];
  /** Every event the parcel will ever have, oldest first. */
  readonly events: readonly SimEvent[];
  /** From this time the carrier answers "invalid number" (NotFound_InvalidCode); null for other scenarios. */
  readonly invalidCodeAtMs: number | null;
  readonly serviceType: string | null;
  readonly weightKg: string | null;
  readonly pieces: number | null;
  readonly dimensions: string | null;
  readonly referenceNumber: string | null;
  readonly riskFactor: number;
  /** Estimated delivery window: the service's own estimate, the carrier's (`official`), or none. */
  readonly estimate: { readonly source: 'service' | 'official'; readonly fromMs: number; readonly toMs: number } | null;
}

export interface PlanOptions {
  /** Last-mile carrier (postal shipments only; ignored otherwise). */
  finalCarrier?: number;
  /** The carrier's extra parameter; a `CC-postcode` or a postcode shapes the recipient address. */
  param?: string;
}

// ---- scenarios ----

type Variant = PhraseId | null;

interface ScenarioDef {
  readonly weight: number;
  /** Variants (the phrase the story ends or turns on); one is drawn. */
  readonly variants?: readonly PhraseId[];
  readonly final: (variant: Variant) => string;
}

const FAILURES: readonly PhraseId[] = ['failOther', 'failNoBody', 'failSecurity', 'failRejected', 'failAddress'];
const EXCEPTIONS: readonly PhraseId[] = [
  'excOther',
  'excNoBody',
  'excSecurity',
  'excDamage',
  'excRejected',
  'excDelayed',
  'excLost',
  'excDestroyed',
  'excCancel',
];
/** What sends a parcel back: refused at the door, refused as an exception, or never collected. */
const RETURN_TURNS: readonly PhraseId[] = ['failRejected', 'excRejected', 'availableForPickup'];
const STALL_POINTS: readonly PhraseId[] = [
  'pickedUp',
  'sorted',
  'departed',
  'arrived',
  'customsProcessing',
  'customsReleased',
  'inTransit',
];
/** Phrases only an international route has. */
const INTERNATIONAL_ONLY: ReadonlySet<PhraseId> = new Set<PhraseId>([
  'departed',
  'arrived',
  'customsProcessing',
  'customsReleased',
  'excSecurity',
  'excDestroyed',
]);

const fixed = (sub: string) => (): string => sub;
const ofVariant = (v: Variant): string => (v === null ? 'InTransit_Other' : PHRASES[v].sub);

/**
 * Weights sum to 100, so each reads as a percentage for a carrier of the world's norm (trouble rate 1): seven
 * parcels in ten delivered, as a shop sees, and every other story often enough to meet in a month of parcels.
 * A carrier's trouble rate multiplies the weights of the troubled ones (TROUBLE below).
 */
export const SCENARIOS: Readonly<Record<ScenarioName, ScenarioDef>> = {
  delivered: { weight: 36, final: fixed('Delivered_Other') },
  delivered_without_info: { weight: 12, final: fixed('Delivered_Other') },
  delivered_without_pickup: { weight: 8, final: fixed('Delivered_Other') },
  delivered_bare: { weight: 5, final: fixed('Delivered_Other') },
  delivered_after_failure: { weight: 4, variants: ['failNoBody', 'failOther'], final: fixed('Delivered_Other') },
  delivered_at_pickup_point: { weight: 7, final: fixed('Delivered_Other') },
  awaiting_pickup: { weight: 2, final: fixed('AvailableForPickup_Other') },
  out_for_delivery: { weight: 1, final: fixed('OutForDelivery_Other') },
  delivery_failure: { weight: 3, variants: FAILURES, final: ofVariant },
  exception: { weight: 5, variants: EXCEPTIONS, final: ofVariant },
  returned: { weight: 2, variants: RETURN_TURNS, final: fixed('Exception_Returned') },
  returning: { weight: 1, variants: RETURN_TURNS, final: fixed('Exception_Returning') },
  customs_hold: { weight: 2, final: fixed('InTransit_CustomsRequiringInformation') },
  stalled: { weight: 5, variants: STALL_POINTS, final: ofVariant },
  info_only: { weight: 2, final: fixed('InfoReceived') },
  expired: { weight: 1, final: fixed('Expired_Other') },
  not_found: { weight: 2, final: fixed('NotFound_Other') },
  invalid_code: { weight: 2, final: fixed('NotFound_InvalidCode') },
};

const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

/** The scenarios a carrier's trouble rate weighs (carriers.ts): every story that is not a plain journey. */
const TROUBLE: ReadonlySet<ScenarioName> = new Set<ScenarioName>([
  'delivered_after_failure',
  'delivery_failure',
  'exception',
  'returned',
  'returning',
  'customs_hold',
  'stalled',
  'expired',
]);

function weightOf(name: ScenarioName, trouble: number): number {
  return SCENARIOS[name].weight * (TROUBLE.has(name) ? trouble : 1);
}

const totals = new Map<number, number>();

/** The weights' sum for a trouble rate (a carrier's), kept: every plan draws with it. */
function totalWeight(trouble: number): number {
  let total = totals.get(trouble);
  if (total === undefined) {
    total = SCENARIO_NAMES.reduce((sum, name) => sum + weightOf(name, trouble), 0);
    totals.set(trouble, total);
  }
  return total;
}

function seedText(number: string, carrierKey: number): string {
  return `${number.toUpperCase()}|${carrierKey}`;
}

interface Draw {
  scenario: ScenarioName;
  variant: Variant;
}

/** The scenario of a parcel of a carrier with this trouble rate (1: the weights as the table gives them). */
function drawScenario(rng: Rng, trouble: number): Draw {
  let x = rng.next() * totalWeight(trouble);
  let scenario: ScenarioName = 'delivered';
  for (const name of SCENARIO_NAMES) {
    x -= weightOf(name, trouble);
    if (x < 0) {
      scenario = name;
      break;
    }
  }
  const variants = SCENARIOS[scenario].variants;
  return { scenario, variant: variants ? rng.pick(variants) : null };
}

export interface ScenarioInfo {
  scenario: ScenarioName;
  /** Sub-status of the last state the parcel reaches (v2.1 vocabulary). */
  finalSubStatus: string;
  /** The phrase the story ends or turns on, e.g. `excLost` for an exception; null when the scenario has none. */
  variant: PhraseId | null;
}

/** Outcome of a (number, carrier) pair without planning it; always agrees with planShipment. */
export function scenarioOf(number: string, carrierKey: number): ScenarioInfo {
  const trouble = findCarrier(carrierKey)?.trouble ?? 1;
  const { scenario, variant } = drawScenario(rngFor(seedText(number, carrierKey)), trouble);
  return { scenario, finalSubStatus: SCENARIOS[scenario].final(variant), variant };
}

// ---- sample numbers ----

/** `n` in exactly `width` digits (wrapping), so a sample number keeps its carrier's length for any index. */
const pad = (n: number, width: number): string => String(n % 10 ** width).padStart(width, '0');

/**
 * The i-th sample number of a carrier, in the format detection maps to it (see detect.ts); carriers without a
 * pattern get a number that needs their code passed explicitly.
 */
export function sampleNumber(carrierKey: number, i: number): string {
  const c = findCarrier(carrierKey);
  // Spread consecutive i over the digit space so that samples do not look like a counter.
  const k = (Math.imul(i + 1, 2654435761) >>> 0) % 1_000_000_000;
  switch (carrierKey) {
    case 7047:
      return `GM${pad(i, 7)}${pad(k, 9)}`;
    case 100002:
      return `1Z999AA1${pad(k, 10)}`;
    case 190012:
      return `YT${pad(i, 7)}${pad(k, 9)}`;
    case 190271:
      return `LP${pad(i, 5)}${pad(k, 9)}`;
    case 190094:
      return `4PX${pad(i, 3)}${pad(k, 9)}`;
    case 100003:
      return `7${pad(i, 2)}${pad(k, 9)}`;
    case 100001:
      return `1${pad(k, 9)}`;
    case 100012:
      return `SF${pad(i, 4)}${pad(k, 9)}`;
    case 100010:
      return `155${pad(i, 2)}${pad(k, 9)}`;
    case 100005:
      return `5${pad(i, 1)}${pad(k, 9)}`;
    case 100004:
      return `GE${pad(k, 9)}WW`;
    case 100009:
      return `TLX${pad(i, 3)}${pad(k, 9)}`;
    case 101066:
      return `DFE${pad(i, 3)}${pad(k, 9)}`;
    case 100766:
      return `DGF${pad(i, 3)}${pad(k, 9)}`;
    default:
      if (c?.postal && c.country !== null) return `${i % 2 === 0 ? 'RR' : 'CP'}${pad(k, 9)}${c.country}`;
      return `SIM${pad(carrierKey, 6)}${pad(k, 9)}`;
  }
}

export interface NumberWanted {
  scenario?: ScenarioName;
  /** Final sub-status (v2.1 vocabulary). */
  finalSubStatus?: string;
}

/** First sample number of a carrier (from index `from`) whose outcome matches; undefined after `limit` tries. */
export function findNumber(carrierKey: number, wanted: NumberWanted, from = 0, limit = 100_000): string | undefined {
  for (let i = from; i < from + limit; i++) {
    const n = sampleNumber(carrierKey, i);
    const info = scenarioOf(n, carrierKey);
    if (wanted.scenario !== undefined && info.scenario !== wanted.scenario) continue;
    if (wanted.finalSubStatus !== undefined && info.finalSubStatus !== wanted.finalSubStatus) continue;
    return n;
  }
  return undefined;
}

// ---- planning ----

type Role = 'o' | 'd';
type Place = 'shipper' | 'originHub' | 'destHub' | 'recipient';

/**
 * What a step's gap scales with: `fixed` waits are rules of the story (a pickup point keeps a parcel a week, a
 * carrier declares a parcel lost after weeks); `pace` steps of a journey go at the pace of the carrier that does
 * them; the `lane` step (the line haul between countries) also grows with the distance between them.
 */
type Scale = 'fixed' | 'pace' | 'lane';

interface Step {
  phrase: PhraseId;
  role: Role;
  place: Place;
  /** Hours after the previous event, at the world's norm. */
  minH: number;
  maxH: number;
  scale: Scale;
}

const step = (
  phrase: PhraseId,
  role: Role,
  place: Place,
  minH: number,
  maxH: number,
  scale: Scale = 'fixed',
): Step => ({ phrase, role, place, minH, maxH, scale });

function fullChain(international: boolean, withInfo: boolean, withPickup: boolean): Step[] {
  const s: Step[] = [];
  if (withInfo) s.push(step('info', 'o', 'shipper', 0, 0));
  if (withPickup) s.push(step('pickedUp', 'o', 'shipper', 2, 30, 'pace'));
  s.push(step('sorted', 'o', 'originHub', 3, 24, 'pace'));
  if (international) {
    s.push(step('departed', 'o', 'originHub', 12, 72, 'pace'));
    s.push(step('arrived', 'd', 'destHub', 24, 168, 'lane'));
    s.push(step('customsProcessing', 'd', 'destHub', 2, 24, 'pace'));
    s.push(step('customsReleased', 'd', 'destHub', 6, 72, 'pace'));
  }
  s.push(step('inTransit', 'd', 'recipient', 24, 72, 'pace'));
  s.push(step('outForDelivery', 'd', 'recipient', 6, 40, 'pace'));
  s.push(step('delivered', 'd', 'recipient', 1, 10, 'pace'));
  return s;
}

/**
 * The factor of the line haul between two countries, by the distance between their hubs: about 0.4 between
 * neighbours, 1.7 from China to the United States, 2.4 at the far side of the world; 1 when a hub has no
 * coordinates.
 */
export function laneFactor(origin: Country, destination: Country): number {
  const km = distanceKm(origin.hub, destination.hub);
  return km === undefined ? 1 : Math.min(2.4, 0.35 + km / 9000);
}

/** Multiplier of each step's gap in one parcel's journey. */
function journeyTiming(originProvider: SimCarrier, destProvider: SimCarrier, lane: number): (s: Step) => number {
  return (s) => {
    if (s.scale === 'fixed') return 1;
    // The line haul is the origin carrier's; the rest is done by whoever holds the parcel then.
    if (s.scale === 'lane') return originProvider.pace * lane;
    return (s.role === 'o' ? originProvider : destProvider).pace;
  };
}

function upTo(chain: readonly Step[], phrase: PhraseId): Step[] {
  const i = chain.findIndex((s) => s.phrase === phrase);
  return chain.slice(0, i < 0 ? chain.length : i + 1);
}

/** The steps of a scenario; `international` is already settled (forced when the story needs it). */
function storySteps(draw: Draw, international: boolean, rng: Rng): Step[] {
  const { scenario, variant } = draw;
  // Whether the carrier announced the parcel (InfoReceived) and scanned the pickup: the time metrics depend
  // on both, so the plain delivered stories have one scenario per combination and the others draw them.
  let withInfo: boolean;
  let withPickup: boolean;
  switch (scenario) {
    case 'delivered':
      [withInfo, withPickup] = [true, true];
      break;
    case 'delivered_without_info':
      [withInfo, withPickup] = [false, true];
      break;
    case 'delivered_without_pickup':
      [withInfo, withPickup] = [true, false];
      break;
    case 'delivered_bare':
      [withInfo, withPickup] = [false, false];
      break;
    default:
      withInfo = rng.chance(0.7);
      withPickup = rng.chance(0.8) || variant === 'pickedUp';
  }
  const chain = fullChain(international, withInfo, withPickup);
  const last = (): Step => chain[chain.length - 1] as Step;
  switch (scenario) {
    case 'delivered':
    case 'delivered_without_info':
    case 'delivered_without_pickup':
    case 'delivered_bare':
      return chain;
    case 'delivered_after_failure':
      return [
        ...upTo(chain, 'outForDelivery'),
        step(variant ?? 'failNoBody', 'd', 'recipient', 1, 10),
        step('outForDelivery', 'd', 'recipient', 14, 30),
        last(),
      ];
    case 'delivered_at_pickup_point':
      return [
        ...upTo(chain, 'inTransit'),
        step('availableForPickup', 'd', 'recipient', 6, 30),
        step('collected', 'd', 'recipient', 4, 120),
      ];
    case 'awaiting_pickup':
      return [...upTo(chain, 'inTransit'), step('availableForPickup', 'd', 'recipient', 6, 30)];
    case 'out_for_delivery':
      return upTo(chain, 'outForDelivery');
    case 'delivery_failure':
      return [...upTo(chain, 'outForDelivery'), step(variant ?? 'failOther', 'd', 'recipient', 1, 10)];
    case 'exception':
      return exceptionSteps(chain, variant ?? 'excOther', international, withInfo);
    case 'returned':
    case 'returning': {
      const turn = variant ?? 'failRejected';
      const before =
        turn === 'availableForPickup'
          ? [...upTo(chain, 'inTransit'), step('availableForPickup', 'd', 'recipient', 6, 30)]
          : [...upTo(chain, 'outForDelivery'), step(turn, 'd', 'recipient', 1, 10)];
      // A pickup point keeps an uncollected parcel for about a week before sending it back.
      const held = turn === 'availableForPickup';
      const back = step('returning', 'd', 'recipient', held ? 120 : 12, held ? 200 : 48);
      if (scenario === 'returning') return [...before, back];
      return [...before, back, step('returned', 'o', 'shipper', international ? 144 : 48, international ? 480 : 144)];
    }
    case 'customs_hold':
      return [...upTo(chain, 'customsProcessing'), step('customsInfo', 'd', 'destHub', 6, 48)];
    case 'stalled':
      return upTo(chain, variant ?? 'sorted');
    case 'info_only':
      return [step('info', 'o', 'shipper', 0, 0)];
    case 'expired':
      // Quiet for three to four weeks (under the 30-day expiry), then the carrier reports the parcel expired.
      return [...upTo(chain, international ? 'arrived' : 'inTransit'), step('expired', 'd', 'destHub', 480, 672)];
    case 'not_found':
    case 'invalid_code':
      return [];
  }
}

function exceptionSteps(chain: readonly Step[], kind: PhraseId, international: boolean, withInfo: boolean): Step[] {
  switch (kind) {
    case 'excCancel':
      // Cancelled before the carrier ever saw the parcel.
      return [
        withInfo ? (chain[0] as Step) : step('info', 'o', 'shipper', 0, 0),
        step('excCancel', 'o', 'shipper', 6, 48),
      ];
    case 'excSecurity':
      return [...upTo(chain, 'customsProcessing'), step('excSecurity', 'd', 'destHub', 12, 72)];
    case 'excDestroyed':
      return [
        ...upTo(chain, 'customsProcessing'),
        step('excSecurity', 'd', 'destHub', 12, 72),
        step('excDestroyed', 'd', 'destHub', 120, 480),
      ];
    case 'excLost':
      return [...upTo(chain, international ? 'departed' : 'sorted'), step('excLost', 'o', 'originHub', 168, 480)];
    case 'excDamage':
      return international
        ? [...upTo(chain, 'arrived'), step('excDamage', 'd', 'destHub', 4, 48)]
        : [...upTo(chain, 'sorted'), step('excDamage', 'o', 'originHub', 4, 48)];
    case 'excDelayed':
      return international
        ? [...upTo(chain, 'departed'), step('excDelayed', 'o', 'originHub', 24, 96)]
        : [...upTo(chain, 'inTransit'), step('excDelayed', 'd', 'recipient', 24, 96)];
    case 'excNoBody':
    case 'excRejected':
      return [...upTo(chain, 'outForDelivery'), step(kind, 'd', 'recipient', 1, 8)];
    default:
      return international
        ? [...upTo(chain, 'arrived'), step(kind, 'd', 'destHub', 12, 72)]
        : [...upTo(chain, 'inTransit'), step(kind, 'd', 'recipient', 12, 72)];
  }
}

function needsInternational(draw: Draw): boolean {
  return draw.scenario === 'customs_hold' || (draw.variant !== null && INTERNATIONAL_ONLY.has(draw.variant));
}

// Addresses are shared, frozen objects made once per city; answers copy them.
const addressCache = new Map<City | string, Address>();

function addressOf(iso: string, city: City | null): Address {
  const key = city ?? iso;
  let a = addressCache.get(key);
  if (!a) {
    a = Object.freeze({
      country: iso,
      state: city?.state ?? null,
      city: city?.city ?? null,
      street: null,
      postal_code: city?.postalCode ?? null,
      coordinates: Object.freeze({ longitude: city?.longitude ?? null, latitude: city?.latitude ?? null }),
    });
    addressCache.set(key, a);
  }
  return a;
}

function locationOf(iso: string, city: City, hub: boolean): string {
  return `${city.city}, ${hub || city.state === null ? iso : city.state}`;
}

const DOMESTIC_SHARE = 0.25;

interface Route {
  origin: Country;
  destination: Country;
  route: number[];
  finalCarrier: number;
}

function chooseRoute(carrier: SimCarrier, rng: Rng, international: boolean, opts: PlanOptions | undefined): Route {
  const originIso = rng.pick(carrier.origins.length > 0 ? carrier.origins : COUNTRY_ISOS);
  const origin = countryOf(originIso) as Country;
  let candidates = carrier.destinations.length > 0 ? carrier.destinations : COUNTRY_ISOS;
  if (international) {
    const abroad = candidates.filter((c) => c !== originIso);
    candidates = abroad.length > 0 ? abroad : COUNTRY_ISOS.filter((c) => c !== originIso);
  }
  const domestic = !international && candidates.includes(originIso) && rng.chance(DOMESTIC_SHARE);
  let destIso = domestic ? originIso : rng.pick(candidates);
  let lastMile: SimCarrier | undefined;
  let finalCarrier = 0;
  if (carrier.postal) {
    const chosen = opts?.finalCarrier ? findCarrier(opts.finalCarrier) : undefined;
    if (chosen) {
      destIso = chosen.country ?? destIso;
      finalCarrier = chosen.key;
    }
    lastMile = chosen ?? postalCarrierOf(destIso);
  }
  const paramCountry = countryFromParam(opts?.param);
  if (paramCountry && !lastMile) destIso = paramCountry;
  const destination = countryOf(destIso) ?? origin;
  const route = lastMile && lastMile.key !== carrier.key ? [carrier.key, lastMile.key] : [carrier.key];
  return { origin, destination, route, finalCarrier };
}

/** `DE-10115` → `DE` when the country is simulated. */
function countryFromParam(param: string | undefined): string | undefined {
  const m = param ? /^([A-Za-z]{2})-/.exec(param) : null;
  const iso = m?.[1]?.toUpperCase();
  return iso && countryOf(iso) ? iso : undefined;
}

/** Postal code carried by a param: `DE-10115` → `10115`; a bare postcode as is; dates and phone digits → none. */
function postalCodeFromParam(param: string | undefined, form: SimCarrier['param']): string | undefined {
  if (!param) return undefined;
  if (form === 'CountryPostalCode') return /^[A-Za-z]{2}-(.+)$/.exec(param)?.[1];
  if (form === 'PostalCode') return param;
  return undefined;
}

function pickOther(rng: Rng, cities: readonly City[], not: City | null): City {
  const pool = not ? cities.filter((c) => c !== not) : cities;
  return rng.pick(pool.length > 0 ? pool : cities);
}

function buildShipment(number: string, carrierKey: number, startMs: number, opts: PlanOptions | undefined): Shipment {
  const carrier = findCarrier(carrierKey) ?? unknownCarrier(carrierKey);
  const rng = rngFor(seedText(number, carrierKey));
  const draw = drawScenario(rng, carrier.trouble);
  const { origin, destination, route, finalCarrier } = chooseRoute(carrier, rng, needsInternational(draw), opts);
  const international = origin.iso !== destination.iso || needsInternational(draw);
  const shipperCity = rng.pick(origin.cities);
  const recipientCity = pickOther(rng, destination.cities, origin === destination ? shipperCity : null);
  const steps = storySteps(draw, international, rng);

  const providers = route.map((key) => findCarrier(key) ?? carrier);
  const originProvider = providers[0] as SimCarrier;
  const destProvider = providers[providers.length - 1] as SimCarrier;
  const timing = journeyTiming(originProvider, destProvider, laneFactor(origin, destination));

  const lead = rng.chance(0.6) ? -rng.range(1, 72) * HOUR_MS : rng.range(5 / 60, 36) * HOUR_MS;
  let t = roundToMinute(startMs + lead);
  const events: SimEvent[] = [];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as Step;
    if (i > 0) t += Math.max(MINUTE_MS, roundToMinute(rng.range(s.minH, s.maxH) * timing(s) * HOUR_MS));
    const provider = s.role === 'o' ? originProvider : destProvider;
    const phrase = PHRASES[s.phrase];
    const country = s.place === 'shipper' || s.place === 'originHub' ? origin : destination;
    const hub = s.place === 'originHub' || s.place === 'destHub';
    const city = s.place === 'shipper' ? shipperCity : s.place === 'recipient' ? recipientCity : country.hub;
    // Announcements carry no place: the carrier only has the sender's data.
    const placeless = s.phrase === 'info';
    events.push({
      atMs: t,
      subStatus: phrase.sub,
      stage: phrase.stage,
      description: phrase.text[provider.lang],
      phrase: s.phrase,
      location: placeless ? null : locationOf(country.iso, city, hub),
      address: placeless ? addressOf(country.iso, null) : addressOf(country.iso, city),
      provider: provider.key,
    });
  }

  const recipientPostal = postalCodeFromParam(opts?.param, carrier.param);
  const recipientBase = addressOf(destination.iso, recipientCity);
  const recipientAddress =
    recipientPostal !== undefined ? Object.freeze({ ...recipientBase, postal_code: recipientPostal }) : recipientBase;

  // The expected delivery: when the full story would end, whatever this parcel's scenario is.
  const nominalSteps = fullChain(international, true, true);
  const nominalHours = nominalSteps.reduce((h, s) => h + ((s.minH + s.maxH) / 2) * timing(s), 0);
  const expectedMs = startMs + lead + nominalHours * HOUR_MS;
  const estimateDraw = rng.next();
  const estimate =
    estimateDraw < 0.4
      ? {
          source: 'service' as const,
          fromMs: expectedMs - rng.range(0, 2) * 24 * HOUR_MS,
          toMs: expectedMs + rng.range(1, 4) * 24 * HOUR_MS,
        }
      : estimateDraw < 0.65
        ? { source: 'official' as const, fromMs: expectedMs, toMs: expectedMs + rng.range(1, 3) * 24 * HOUR_MS }
        : null;

  const weighed = rng.chance(0.6);
  const kg = rng.range(0.05, carrier.postal ? 2 : 12);
  return {
    number,
    carrier: carrierKey,
    finalCarrier,
    param: opts?.param ?? null,
    scenario: draw.scenario,
    startMs,
    originCountry: origin.iso,
    destinationCountry: destination.iso,
    shipperAddress: addressOf(origin.iso, shipperCity),
    recipientAddress,
    route,
    events,
    invalidCodeAtMs: draw.scenario === 'invalid_code' ? startMs : null,
    serviceType: rng.chance(0.75) ? rng.pick(carrier.serviceTypes) : null,
    weightKg: weighed ? kg.toFixed(2) : null,
    pieces: weighed ? (carrier.postal ? 1 : rng.int(1, 3)) : null,
    dimensions: weighed && rng.chance(0.4) ? `${rng.int(10, 60)}x${rng.int(10, 40)}x${rng.int(2, 30)} cm` : null,
    referenceNumber: rng.chance(0.3) ? `REF${rng.int(100000, 999999)}` : null,
    riskFactor: RISKY.has(draw.scenario) ? rng.int(1, 3) : 0,
    estimate,
  };
}

const RISKY: ReadonlySet<ScenarioName> = new Set<ScenarioName>(['exception', 'returned', 'returning']);

function roundToMinute(ms: number): number {
  return Math.round(ms / MINUTE_MS) * MINUTE_MS;
}

/** A stand-in for a code outside the simulated table, so planning never throws (the caller validates codes). */
function unknownCarrier(key: number): SimCarrier {
  return {
    key,
    name: `Carrier ${key}`,
    alias: `Carrier ${key}`,
    country: 'US',
    tel: null,
    homepage: '',
    postal: false,
    utcOffsetMinutes: 0,
    realtime: true,
    lang: 'en',
    serviceTypes: ['Standard'],
    origins: ['US'],
    destinations: [],
    pace: 1,
    trouble: 1,
  };
}

// ---- planning entry point ----

// No cache: building a plan takes a couple of microseconds (with statusAt about 3 µs), less than an LRU
// costs on the emulator's access pattern (each tracking run touches a different record), and a cache of
// shared objects would also keep 100,000 plans alive for nothing.

/**
 * The full plan of a parcel registered at `startMs` (simulated epoch ms) under `carrierKey`. Deterministic:
 * equal arguments give equal plans. Carrier codes outside the simulated table are planned as a generic
 * carrier (the caller validates codes).
 */
export function planShipment(number: string, carrierKey: number, startMs: number, opts?: PlanOptions): Shipment {
  return buildShipment(number, carrierKey, startMs, opts);
}

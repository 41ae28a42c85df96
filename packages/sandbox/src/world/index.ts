// The simulated world of the service emulator: carriers, detection, shipments and what the service knows
// about them at any moment. Deterministic: no timers, no clock; its one read is the service's carrier and
// country lists shipped with trk (catalog.ts), loaded once, on the first question they answer.

export type { CarrierParamForm, SimCarrier } from './carriers.js';
export { PARAM_REQUIRED_CODE, SIM_CARRIERS, findCarrier, postalCarrierOf } from './carriers.js';
export type { Detection } from './detect.js';
export { detectCarrier } from './detect.js';
export type { PhraseId, TextLang } from './phrases.js';
export { SUB_STATUS_DESCR } from './phrases.js';
export type { Country } from './places.js';
export { COUNTRIES, countryOf, v1CountryCode } from './places.js';
export { fnv1a } from './random.js';
export type { NumberWanted, PlanOptions, ScenarioInfo, ScenarioName, Shipment, SimEvent } from './shipment.js';
export { SCENARIOS, findNumber, planShipment, sampleNumber, scenarioOf } from './shipment.js';
export type { DayMetrics, StatusSnapshot, TrackInfoOptions, V1TrackForm } from './track-info.js';
export {
  ESTIMATE_SOURCE_OFFICIAL,
  ESTIMATE_SOURCE_SERVICE,
  V1_INVALID_TIME,
  nextChangeAfter,
  statusAt,
  timeMetricsAt,
  toV2SubStatus,
  trackInfoAt,
  v1TrackAt,
} from './track-info.js';

// Helpers for the world tests: the fixture reader and hand-built shipments.

import { PHRASES } from '../../src/world/phrases.js';
import type { PhraseId } from '../../src/world/phrases.js';
import type { Shipment, SimEvent } from '../../src/world/shipment.js';

export { fixtureJson } from '../../../../test/fixture-files.js';

export const ms = (iso: string): number => Date.parse(iso);

const ADDRESS = { country: 'CN', state: null, city: null, street: null, postal_code: null, coordinates: null };

/** An event of phrase `phrase` at `iso` (UTC) reported by `provider` (default Yanwen, +08:00). */
export function ev(iso: string, phrase: PhraseId, provider = 190012): SimEvent {
  const p = PHRASES[phrase];
  return {
    atMs: ms(iso),
    subStatus: p.sub,
    stage: p.stage,
    description: p.text.en,
    phrase,
    location: 'SHENZHEN, CN',
    address: ADDRESS,
    provider,
  };
}

/** A hand-built shipment with the given events (oldest first). */
export function shipment(events: SimEvent[], over: Partial<Shipment> = {}): Shipment {
  return {
    number: 'YT0000000000000001',
    carrier: 190012,
    finalCarrier: 0,
    param: null,
    scenario: 'delivered',
    startMs: events[0]?.atMs ?? ms('2026-06-01T00:00:00Z'),
    originCountry: 'CN',
    destinationCountry: 'US',
    shipperAddress: ADDRESS,
    recipientAddress: { ...ADDRESS, country: 'US' },
    route: [190012],
    events,
    invalidCodeAtMs: null,
    serviceType: null,
    weightKg: null,
    pieces: null,
    dimensions: null,
    referenceNumber: null,
    riskFactor: 0,
    estimate: null,
    ...over,
  };
}

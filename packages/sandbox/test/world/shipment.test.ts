import { describe, expect, it } from 'vitest';
import { PACKAGE_STATUSES, mainStatusOf, subStatuses } from '@trk/service/vocabulary.js';
import { SIM_CARRIERS, findCarrier, postalCarrierOf } from '../../src/world/carriers.js';
import type { ScenarioName } from '../../src/world/shipment.js';
import { SCENARIOS, findNumber, planShipment, sampleNumber, scenarioOf } from '../../src/world/shipment.js';
import { statusAt } from '../../src/world/track-info.js';

const START = Date.UTC(2026, 5, 20, 10, 0);
const DAY = 86_400_000;
const FOREVER = START + 400 * DAY;

/** A few thousand (number, carrier) pairs over every simulated carrier. */
function population(size: number): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (let i = 0; i < size; i++) {
    const c = SIM_CARRIERS[i % SIM_CARRIERS.length]!;
    out.push([sampleNumber(c.key, i), c.key]);
  }
  return out;
}

describe('planShipment determinism', () => {
  it('gives the same plan for the same input', () => {
    const a = planShipment('RR123456789CN', 3011, START);
    const b = planShipment('RR123456789CN', 3011, START);
    expect(b).toEqual(a);
    expect(a.events.length).toBeGreaterThanOrEqual(0);
  });

  it('tells different stories for different numbers and for different carriers', () => {
    const plans = population(200).map(([n, k]) => planShipment(n, k, START));
    const shapes = new Set(plans.map((p) => JSON.stringify(p.events.map((e) => [e.atMs, e.subStatus]))));
    expect(shapes.size).toBeGreaterThan(150);
    const a = planShipment('ABC123456789', 190271, START);
    const b = planShipment('ABC123456789', 190012, START);
    expect(JSON.stringify(a.events)).not.toBe(JSON.stringify(b.events));
  });

  it('only shifts in time with the registration time', () => {
    for (const [n, k] of population(50)) {
      const a = planShipment(n, k, START);
      const b = planShipment(n, k, START + 3 * DAY);
      expect(b.scenario).toBe(a.scenario);
      expect(b.events.map((e) => e.atMs - 3 * DAY)).toEqual(a.events.map((e) => e.atMs));
    }
  });

  it('is case-insensitive in the number for the story', () => {
    const a = planShipment('rr123456789cn', 3011, START);
    const b = planShipment('RR123456789CN', 3011, START);
    expect(a.events.map((e) => e.atMs)).toEqual(b.events.map((e) => e.atMs));
  });
});

describe('scenarios', () => {
  const pop = population(3000);

  it('reach every main status and every one of the 30 sub-statuses, as final or intermediate state', () => {
    const seen = new Set<string>();
    for (const [n, k] of pop) {
      const plan = planShipment(n, k, START);
      for (const e of plan.events) seen.add(e.subStatus);
      seen.add(statusAt(plan, FOREVER).subStatus);
    }
    for (const sub of subStatuses('v2.1')) expect(seen, sub).toContain(sub);
    const mains = new Set([...seen].map((s) => mainStatusOf(s)));
    for (const main of PACKAGE_STATUSES) expect(mains, main).toContain(main);
  });

  it('reach every scenario', () => {
    const seen = new Set(pop.map(([n, k]) => scenarioOf(n, k).scenario));
    for (const name of Object.keys(SCENARIOS)) expect(seen, name).toContain(name);
  });

  it('scenarioOf agrees with the plan and its final state', () => {
    for (const [n, k] of pop.slice(0, 1500)) {
      const plan = planShipment(n, k, START);
      const info = scenarioOf(n, k);
      expect(info.scenario).toBe(plan.scenario);
      expect(statusAt(plan, FOREVER).subStatus, `${n}/${k} ${info.scenario}`).toBe(info.finalSubStatus);
    }
  });

  it('keep events in time order, each from one of the providers', () => {
    for (const [n, k] of pop.slice(0, 1000)) {
      const plan = planShipment(n, k, START);
      for (let i = 1; i < plan.events.length; i++)
        expect(plan.events[i]!.atMs).toBeGreaterThan(plan.events[i - 1]!.atMs);
      for (const e of plan.events) expect(plan.route).toContain(e.provider);
      for (const e of plan.events) expect(e.atMs % 60_000).toBe(0);
    }
  });

  it('start between 72 hours before and 36 hours after registration', () => {
    let before = 0;
    let after = 0;
    for (const [n, k] of pop.slice(0, 1000)) {
      const first = planShipment(n, k, START).events[0];
      if (!first) continue;
      expect(first.atMs).toBeGreaterThanOrEqual(START - 72 * 3_600_000 - 60_000);
      expect(first.atMs).toBeLessThanOrEqual(START + 36 * 3_600_000 + 60_000);
      if (first.atMs < START) before++;
      else after++;
    }
    expect(before).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(0);
  });

  it('deliver in half a day to eight weeks: express at home fastest, slow mail to the far side slowest', () => {
    for (const [n, k] of pop) {
      if (scenarioOf(n, k).scenario !== 'delivered') continue;
      const e = planShipment(n, k, START).events;
      const days = (e[e.length - 1]!.atMs - e[0]!.atMs) / DAY;
      expect(days).toBeGreaterThan(0.5);
      expect(days).toBeLessThan(56);
    }
  });

  it('give the delivered family every combination of InfoReceived and pickup', () => {
    const cases: Array<[ScenarioName, boolean, boolean]> = [
      ['delivered', true, true],
      ['delivered_without_info', false, true],
      ['delivered_without_pickup', true, false],
      ['delivered_bare', false, false],
    ];
    for (const [scenario, info, pickup] of cases) {
      const n = findNumber(190012, { scenario });
      expect(n, scenario).toBeDefined();
      const subs = planShipment(n!, 190012, START).events.map((e) => e.subStatus);
      expect(subs[0] === 'InfoReceived', scenario).toBe(info);
      expect(subs.includes('InTransit_PickedUp'), scenario).toBe(pickup);
      expect(subs.at(-1)).toBe('Delivered_Other');
    }
  });

  it('return parcels through Returning to Returned', () => {
    const n = findNumber(3011, { scenario: 'returned' })!;
    const plan = planShipment(n, 3011, START);
    const subs = plan.events.map((e) => e.subStatus);
    expect(subs.slice(-2)).toEqual(['Exception_Returning', 'Exception_Returned']);
    expect(plan.events.at(-1)!.provider).toBe(3011);
    expect(plan.events.at(-1)!.stage).toBe('Returned');
  });

  it('leave not-found parcels without events, and invalid ones answered as such from registration', () => {
    const nf = planShipment(findNumber(100003, { scenario: 'not_found' })!, 100003, START);
    expect(nf.events).toEqual([]);
    expect(nf.invalidCodeAtMs).toBeNull();
    const inv = planShipment(findNumber(100003, { scenario: 'invalid_code' })!, 100003, START);
    expect(inv.events).toEqual([]);
    expect(inv.invalidCodeAtMs).toBe(START);
  });

  it('let quiet parcels stop mid-route', () => {
    const n = findNumber(190271, { scenario: 'stalled', finalSubStatus: 'InTransit_Arrival' })!;
    const plan = planShipment(n, 190271, START);
    expect(plan.events.at(-1)!.subStatus).toBe('InTransit_Arrival');
    expect(statusAt(plan, FOREVER).nextChangeMs).toBeNull();
  });
});

describe('routes and providers', () => {
  it('give international postal shipments the origin operator and the destination one', () => {
    let seen = 0;
    for (let i = 0; i < 300; i++) {
      const plan = planShipment(sampleNumber(3011, i), 3011, START);
      expect(plan.originCountry).toBe('CN');
      if (plan.destinationCountry === 'CN') {
        expect(plan.route).toEqual([3011]);
        continue;
      }
      seen++;
      expect(plan.route[0]).toBe(3011);
      expect(findCarrier(plan.route[1]!)?.country).toBe(plan.destinationCountry);
      const arrival = plan.events.find((e) => e.subStatus === 'InTransit_Arrival');
      if (arrival) expect(arrival.provider).toBe(plan.route[1]);
      const pickup = plan.events.find((e) => e.subStatus === 'InTransit_PickedUp');
      if (pickup) expect(pickup.provider).toBe(3011);
    }
    expect(seen).toBeGreaterThan(100);
  });

  it('give non-postal shipments one provider', () => {
    for (let i = 0; i < 100; i++) expect(planShipment(sampleNumber(190012, i), 190012, START).route).toEqual([190012]);
  });

  it('hand a postal shipment to the chosen final carrier', () => {
    const plan = planShipment('RR000000001CN', 3011, START, { finalCarrier: 6051 });
    expect(plan.route).toEqual([3011, 6051]);
    expect(plan.destinationCountry).toBe('FR');
    expect(plan.finalCarrier).toBe(6051);
    expect(planShipment('RR000000001CN', 3011, START).finalCarrier).toBe(0);
  });

  it('hand DHL eCommerce US parcels to the destination post (USPS at home)', () => {
    for (let i = 0; i < 50; i++) {
      const plan = planShipment(sampleNumber(7047, i), 7047, START);
      expect(plan.route).toEqual([7047, postalCarrierOf(plan.destinationCountry)!.key]);
    }
  });

  it('take the destination from a country-and-postcode param', () => {
    const plan = planShipment(sampleNumber(100005, 1), 100005, START, { param: 'DE-10115' });
    expect(plan.destinationCountry).toBe('DE');
    expect(plan.recipientAddress.postal_code).toBe('10115');
    expect(plan.param).toBe('DE-10115');
  });

  it('write events in the provider language', () => {
    const n = findNumber(2151, { scenario: 'delivered' })!;
    const plan = planShipment(n, 2151, START, { finalCarrier: 2151 });
    expect(plan.events.at(-1)!.description).toBe('Objeto entregue ao destinatário');
  });
});

describe('findNumber', () => {
  it('finds numbers by final sub-status for any carrier', () => {
    for (const sub of [
      'Exception_Lost',
      'DeliveryFailure_InvalidAddress',
      'InTransit_CustomsRequiringInformation',
      'Expired_Other',
    ]) {
      const n = findNumber(21051, { finalSubStatus: sub });
      expect(n, sub).toBeDefined();
      expect(scenarioOf(n!, 21051).finalSubStatus).toBe(sub);
    }
  });

  it('gives up after the limit', () => {
    expect(findNumber(21051, { finalSubStatus: 'NoSuchStatus' }, 0, 50)).toBeUndefined();
  });
});

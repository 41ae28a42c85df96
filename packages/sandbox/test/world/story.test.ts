// The world tells a shop's story: carriers differ in how fast they deliver and how often things go wrong, and far
// lanes take longer than near ones. Checked statistically over 2,000 parcels per carrier; the world is
// deterministic (each sample number is its own seed), so the figures are the same on every run.

import { describe, expect, it } from 'vitest';
import { findCarrier, planShipment, sampleNumber, type Shipment } from '../../src/world/index.js';

const START = Date.parse('2026-03-02T10:00:00Z');
const DAY = 86_400_000;
const PARCELS = 2000;

const samples = new Map<number, Shipment[]>();
function parcels(carrier: number): Shipment[] {
  let list = samples.get(carrier);
  if (!list) {
    list = Array.from({ length: PARCELS }, (_, i) => planShipment(sampleNumber(carrier, i), carrier, START));
    samples.set(carrier, list);
  }
  return list;
}

/** Days from the first scan (pickup, else the first event) to delivery; undefined when not delivered. */
function transitDays(s: Shipment): number | undefined {
  const delivered = s.events.find((e) => e.subStatus === 'Delivered_Other');
  if (!delivered) return undefined;
  const start = s.events.find((e) => e.subStatus === 'InTransit_PickedUp') ?? s.events[0];
  return (delivered.atMs - start!.atMs) / DAY;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function medianTransit(list: readonly Shipment[]): number {
  return median(list.map(transitDays).filter((d): d is number => d !== undefined));
}

/** Share of parcels that meet an exception or a failed delivery at some point. */
function troubleShare(list: readonly Shipment[]): number {
  const trouble = list.filter((s) => s.events.some((e) => /^(Exception|DeliveryFailure)_/.test(e.subStatus)));
  return trouble.length / list.length;
}

const DHL_EXPRESS = 100001;
const FEDEX = 100003;
const CHINA_POST = 3011;
const CORREIOS = 2151;
const YANWEN = 190012;
const USPS = 21051;

describe('carriers differ', () => {
  it('in transit times: express carriers deliver in days, slow postal operators in weeks', () => {
    const express = medianTransit(parcels(DHL_EXPRESS));
    const chinaPost = medianTransit(parcels(CHINA_POST));
    const correios = medianTransit(parcels(CORREIOS));
    expect(express).toBeLessThan(5);
    expect(chinaPost).toBeGreaterThan(express * 2);
    expect(correios).toBeGreaterThan(chinaPost);
    expect(medianTransit(parcels(FEDEX))).toBeLessThan(medianTransit(parcels(YANWEN)) / 1.5);
  });

  it('in exception rates: error-prone carriers meet trouble far more often than reliable ones', () => {
    const reliable = troubleShare(parcels(DHL_EXPRESS));
    const errorProne = troubleShare(parcels(CORREIOS));
    expect(errorProne).toBeGreaterThan(reliable * 2.5);
    expect(troubleShare(parcels(YANWEN))).toBeGreaterThan(troubleShare(parcels(USPS)) * 1.4);
  });

  it('generic carriers by kind: express (group 11) faster and more reliable than consolidators (12)', () => {
    const EXPRESS = [101073, 101030, 100905, 101113, 100354];
    const CONSOLIDATORS = [190135, 190659, 190164, 191047, 190400];
    const all = (keys: number[]) => keys.flatMap((k) => parcels(k).slice(0, 600));
    expect(medianTransit(all(EXPRESS))).toBeLessThan(medianTransit(all(CONSOLIDATORS)) / 1.5);
    expect(troubleShare(all(CONSOLIDATORS))).toBeGreaterThan(troubleShare(all(EXPRESS)) * 1.8);
  });

  it('no two generic carriers of a kind are alike: each within ±15 % of its kind, fixed by its code', () => {
    const paces = [101073, 101030, 100905, 101113, 100354].map((k) => findCarrier(k)!.pace);
    expect(new Set(paces).size).toBe(paces.length);
    for (const pace of paces) {
      expect(pace).toBeGreaterThanOrEqual(0.6 * 0.85);
      expect(pace).toBeLessThanOrEqual(0.6 * 1.15);
    }
  });
});

describe('lanes differ', () => {
  it('the same carrier takes longer to far countries than to near ones, and domestic parcels are fastest', () => {
    const byDestination = (list: readonly Shipment[], iso: string) =>
      medianTransit(list.filter((s) => s.destinationCountry === iso && s.originCountry !== iso));
    const chinaPost = parcels(CHINA_POST);
    // Shenzhen to Curitiba is six times as far as Shenzhen to Narita.
    expect(byDestination(chinaPost, 'BR')).toBeGreaterThan(byDestination(chinaPost, 'JP') * 1.3);
    const dhl = parcels(DHL_EXPRESS).filter((s) => s.originCountry === 'DE');
    expect(byDestination(dhl, 'AU')).toBeGreaterThan(byDestination(dhl, 'FR'));
    const usps = parcels(USPS);
    const domestic = medianTransit(usps.filter((s) => s.originCountry === s.destinationCountry));
    const abroad = medianTransit(usps.filter((s) => s.originCountry !== s.destinationCountry));
    expect(domestic).toBeLessThan(abroad);
  });
});

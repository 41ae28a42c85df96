// The account's view of the simulated world (@trk/sandbox/world/): everything the account asks about
// carriers and shipments goes through this port, so that the account holds plain records and the world
// stays a set of pure functions. A shipment is planned from (number, carrier, registration time, final
// carrier, param). Plans are not cached: being deterministic, each question plans again, except that a
// Tracker plans once for a series of tracking runs of one record.

import type { TrackInfo, V1Track } from '@trk/service/types.js';
import {
  type Detection,
  type Shipment,
  type SimCarrier,
  type StatusSnapshot,
  type TrackInfoOptions,
  type V1TrackForm,
  detectCarrier,
  findCarrier,
  fnv1a,
  nextChangeAfter,
  planShipment,
  statusAt,
  trackInfoAt,
  v1CountryCode,
  v1TrackAt,
} from '../world/index.js';
import { DAY } from './time.js';

export type { Detection, SimCarrier } from '../world/index.js';
export { PARAM_REQUIRED_CODE } from '../world/index.js';

/** What identifies a shipment: a record, or the same fields for a number that is not registered. */
export interface ShipmentRef {
  number: string;
  carrier: number;
  finalCarrier: number;
  param: string | null;
  /** The shipment is planned from the registration time (kept across carrier changes: same parcel). */
  registerMs: number;
}

export type RunSummary = StatusSnapshot;

/** One shipment, planned once for a series of tracking runs. */
export interface Tracker {
  /** The result a tracking run at `knownUntilMs` stores. */
  summaryAt(knownUntilMs: number): RunSummary;
  /** Earliest time after `afterMs` at which a run could see something new (Infinity when never). */
  nextChangeAfter(afterMs: number): number;
}

export interface WorldPort {
  findCarrier(key: number): SimCarrier | undefined;
  /** Carrier and register `origin`; undefined when it cannot be told (-18019903). */
  detectCarrier(number: string, passed?: number): Detection | undefined;
  tracker(ref: ShipmentRef): Tracker;
  trackInfo(
    ref: ShipmentRef,
    knownUntilMs: number,
    nowMs: number,
    version: 'v2' | 'v2.1',
    lang?: string,
    opts?: TrackInfoOptions & { realtime?: boolean },
  ): TrackInfo;
  v1Track(ref: ShipmentRef, knownUntilMs: number, nowMs: number, form?: V1TrackForm): V1Track;
  v1CountryCode(iso: string | null): number;
  /** Plan start for a real-time query of a number that is not registered (stable over a while). */
  unregisteredStart(number: string, carrier: number, nowMs: number): number;
}

function plan(ref: ShipmentRef): Shipment {
  return planShipment(ref.number, ref.carrier, ref.registerMs, {
    ...(ref.finalCarrier ? { finalCarrier: ref.finalCarrier } : {}),
    ...(ref.param !== null ? { param: ref.param } : {}),
  });
}

/** Window in which an unregistered number tells one story: queries within it agree with each other. */
const UNREGISTERED_WINDOW_MS = 30 * DAY;

export function simWorld(): WorldPort {
  return {
    findCarrier,
    detectCarrier,
    tracker: (ref) => {
      const shipment = plan(ref);
      return {
        summaryAt: (t) => statusAt(shipment, t),
        nextChangeAfter: (t) => nextChangeAfter(shipment, t) ?? Number.POSITIVE_INFINITY,
      };
    },
    trackInfo: (ref, knownUntil, now, version, lang, opts) => {
      const info = trackInfoAt(plan(ref), knownUntil, now, version, lang, { newerFields: opts?.newerFields ?? false });
      // "For postal shipments providers[0] is the destination carrier ... in gettrackinfo and in the
      // TRACKING_UPDATED notification. The real-time description states the reverse": so it is here.
      if (opts?.realtime) info.tracking.providers.reverse();
      return info;
    },
    v1Track: (ref, knownUntil, now, form) => v1TrackAt(plan(ref), knownUntil, now, form),
    v1CountryCode: (iso) => v1CountryCode(iso),
    unregisteredStart: (number, carrier, now) => {
      // A fixed phase per (number, carrier), so the story does not move with every query.
      const phase = fnv1a(`${number}|${carrier}`) % UNREGISTERED_WINDOW_MS;
      return Math.floor((now - phase) / UNREGISTERED_WINDOW_MS) * UNREGISTERED_WINDOW_MS + phase;
    },
  };
}

/** The same world with days_after_order 0 instead of `--` in track_info (the emulator's numericMetrics option). */
export function withNumericMetrics(world: WorldPort): WorldPort {
  return {
    ...world,
    trackInfo: (...args) => {
      const info = world.trackInfo(...args);
      if (info.time_metrics.days_after_order === '--') info.time_metrics.days_after_order = 0;
      return info;
    },
  };
}

// The service's vocabulary, taken from the interface specification: one place for every enum, limit and
// per-version difference, shared by the client, the commands, the validators and the emulator.

export const API_VERSIONS = ['v1', 'v2', 'v2.1'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const DEFAULT_API_VERSION: ApiVersion = 'v2';

/** Operation names as trk knows them (v2 spelling): those of the operations' modules (operations/index.ts). */
export type { Operation } from './operations/index.js';

export const LIMITS = {
  requestsPerSecond: 3,
  itemsPerRequest: 40,
  realtimeItemsPerRequest: 1,
  pageSize: 40,
  listNumberFilterMax: 200,
  numberMinLength: 5,
  numberMaxLength: 50,
  tagMaxLength: 100,
  emailMaxLength: 250,
  remarkMaxLength: 1000,
  paramMaxLength: 10,
  carrierChangesMax: 5,
  retracksMax: 1,
  requestTimeoutMs: 30_000,
} as const;

/** Tracking number format: v2 and v2.1 allow hyphens, v1 only letters and digits. */
export function numberPattern(version: ApiVersion): RegExp {
  return version === 'v1' ? /^[A-Za-z0-9]{5,50}$/ : /^[A-Za-z0-9-]{5,50}$/;
}

export const LANGUAGES = ['en', 'ja', 'fr', 'da', 'th', 'de', 'es', 'zh-hans'] as const;
export type Language = (typeof LANGUAGES)[number];

export const PACKAGE_STATUSES = [
  'NotFound',
  'InfoReceived',
  'InTransit',
  'Expired',
  'AvailableForPickup',
  'OutForDelivery',
  'DeliveryFailure',
  'Delivered',
  'Exception',
] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** The 27 sub-statuses of v2, by main status. */
export const SUB_STATUSES_V2: Readonly<Record<PackageStatus, readonly string[]>> = {
  NotFound: ['NotFound_Other', 'NotFound_InvalidCode'],
  InfoReceived: ['InfoReceived'],
  InTransit: ['InTransit_PickedUp', 'InTransit_Other', 'InTransit_Departure', 'InTransit_Arrival'],
  Expired: ['Expired_Other'],
  AvailableForPickup: ['AvailableForPickup_Other'],
  OutForDelivery: ['OutForDelivery_Other'],
  DeliveryFailure: [
    'DeliveryFailure_Other',
    'DeliveryFailure_NoBody',
    'DeliveryFailure_Security',
    'DeliveryFailure_Rejected',
    'DeliveryFailure_InvalidAddress',
  ],
  Delivered: ['Delivered_Other'],
  Exception: [
    'Exception_Other',
    'Exception_Returning',
    'Exception_Returned',
    'Exception_NoBody',
    'Exception_Security',
    'Exception_Damage',
    'Exception_Rejected',
    'Exception_Delayed',
    'Exception_Lost',
    'Exception_Destroyed',
    'Exception_Cancel',
  ],
};

/** The three customs sub-statuses v2.1 adds under InTransit (30 in all). */
export const CUSTOMS_SUB_STATUSES = [
  'InTransit_CustomsProcessing',
  'InTransit_CustomsReleased',
  'InTransit_CustomsRequiringInformation',
] as const;

export function subStatuses(version: ApiVersion): string[] {
  const all = Object.values(SUB_STATUSES_V2).flat();
  return version === 'v2.1' ? [...all, ...CUSTOMS_SUB_STATUSES] : all;
}

/** Main status of a sub-status name (`InTransit_PickedUp` → `InTransit`), or undefined when unknown. */
export function mainStatusOf(subStatus: string): PackageStatus | undefined {
  for (const [main, subs] of Object.entries(SUB_STATUSES_V2)) {
    if (subs.includes(subStatus)) return main as PackageStatus;
  }
  if ((CUSTOMS_SUB_STATUSES as readonly string[]).includes(subStatus)) return 'InTransit';
  return undefined;
}

/** The events the service notifies the webhook of (Webhooks, Events). */
export const WEBHOOK_EVENTS = ['TRACKING_UPDATED', 'TRACKING_STOPPED'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const KEY_STAGES = [
  'InfoReceived',
  'PickedUp',
  'Departure',
  'Arrival',
  'AvailableForPickup',
  'OutForDelivery',
  'Delivered',
  'Returning',
  'Returned',
] as const;
export type KeyStage = (typeof KEY_STAGES)[number];

export const TRACKING_STATUSES = ['Tracking', 'Stopped'] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];
export const PUSH_STATUSES = ['NotPushed', 'Success', 'Failure'] as const;
export type PushStatus = (typeof PUSH_STATUSES)[number];
export const DATA_ORIGINS = ['Api', 'Manual', 'Import'] as const;
export const STOP_REASONS = ['Expired', 'ByRequest', 'InvalidCarrier'] as const;
export type StopReason = (typeof STOP_REASONS)[number];
export const PARAM_TYPES = [
  'None',
  'PostalCode',
  'PhoneLast4Digits',
  'CountryPostalCode',
  'OriginOffice',
  'Client',
] as const;
export const ORDER_BY = [
  'RegisterTimeAsc',
  'RegisterTimeDesc',
  'PushTimeAsc',
  'PushTimeDesc',
  'TrackTimeAsc',
  'TrackTimeDesc',
] as const;
export type OrderBy = (typeof ORDER_BY)[number];

/** Register `origin`: how the carrier code of an accepted item was settled. */
export const REGISTER_ORIGIN = { detectedOrCorrected: 1, passedCorrect: 2, guessed: 3 } as const;

/** Real-time cache levels and their cost in quota units. */
export const REALTIME_CACHE_COST = { 0: 1, 1: 10 } as const;
/** Carriers the real-time operation does not support (-18019818). */
export const REALTIME_UNSUPPORTED_CARRIERS: ReadonlySet<number> = new Set([21051, 11031, 1151, 101066, 7047, 100766]);

// ---- v1 codes ----

/** v1 package status `e` ↔ v2 main status. v1 has no InfoReceived/OutForDelivery/Exception split. */
export const V1_PACKAGE_STATUS: Readonly<Record<number, PackageStatus>> = {
  0: 'NotFound',
  10: 'InTransit',
  20: 'Expired',
  30: 'AvailableForPickup',
  35: 'DeliveryFailure',
  40: 'Delivered',
  50: 'Exception',
};
/** v2 main status → v1 `package_status` filter code. InfoReceived and OutForDelivery fold into in transit. */
export const V1_PACKAGE_STATUS_CODE: Readonly<Record<PackageStatus, number>> = {
  NotFound: 0,
  InfoReceived: 10,
  InTransit: 10,
  OutForDelivery: 10,
  Expired: 20,
  AvailableForPickup: 30,
  DeliveryFailure: 35,
  Delivered: 40,
  Exception: 50,
};
export const V1_TRACKING_STATE: Readonly<Record<TrackingStatus, number>> = { Tracking: 1, Stopped: 0 };
export const V1_PUSH_STATE: Readonly<Record<PushStatus, number>> = { NotPushed: 0, Success: 1, Failure: 2 };
/** v1 stop reason `sr`: 1 expiry, 2 API request, 3 manual operation, 4 invalid carrier. */
export const V1_STOP_REASON: Readonly<Record<number, string>> = {
  1: 'Expired',
  2: 'ByRequest',
  3: 'Manual',
  4: 'InvalidCarrier',
};
/** v1 carrier tracking status `is1`/`is2`. */
export const V1_CARRIER_TRACKING_STATUS: Readonly<Record<number, string>> = {
  0: 'unable to track',
  1: 'normal tracking',
  2: 'not found',
  10: 'web error',
  11: 'process error',
  12: 'service error',
  20: 'web error (cache)',
  21: 'process error (cache)',
  22: 'service error (cache)',
};

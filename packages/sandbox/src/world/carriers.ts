// The carriers simulated in detail: a small table of real carriers (codes and names as the service's carrier
// list publishes them), enough to exercise every rule the service applies per carrier: postal operators (two
// providers, final_carrier allowed), carriers that need an extra parameter, carriers the real-time operation
// does not serve, and the detection patterns of detect.ts. Every other carrier of the service's list is a
// generic carrier of the world (catalog.ts).

import { PARAM_FORMS, PARAM_REQUIRED_CODE, type ParamForm } from '@trk/service/param-forms.js';
import { REALTIME_UNSUPPORTED_CARRIERS } from '@trk/service/vocabulary.js';
import { catalogCarrier } from './catalog.js';
import type { TextLang } from './phrases.js';

/** Form of the extra parameter a carrier needs (the service's `param_type` names): service/param-forms.ts. */
export type CarrierParamForm = ParamForm;
export { PARAM_REQUIRED_CODE };

export interface SimCarrier {
  readonly key: number;
  /** Short name (provider `name`). */
  readonly name: string;
  /** The name in the service's carrier list (provider `alias`). */
  readonly alias: string;
  /** ISO 3166-1 alpha-2; null for the few listed carriers without a country. */
  readonly country: string | null;
  readonly tel: string | null;
  readonly homepage: string;
  /** UPU postal operator (`_group` "" in the carrier list): two providers, final_carrier allowed. */
  readonly postal: boolean;
  /** Fixed offset of the headquarters zone; event `time_iso` carries it. Daylight saving is not simulated. */
  readonly utcOffsetMinutes: number;
  /** Extra parameter the carrier needs at registration, if any. */
  readonly param?: CarrierParamForm;
  /** Served by the real-time operation (else -18019818). */
  readonly realtime: boolean;
  /** Language the carrier writes its event texts in. */
  readonly lang: TextLang;
  /** Service types its shipments travel under (misc_info.service_type). */
  readonly serviceTypes: readonly string[];
  /** Countries its shipments leave from; empty = anywhere in the world of places.ts. */
  readonly origins: readonly string[];
  /** Countries its shipments go to; empty = anywhere in the simulated world. */
  readonly destinations: readonly string[];
  /**
   * How long its transit steps take against the world's norm (1): express carriers about a third, slow
   * cross-border mail half as long again. Applied to the gaps between the scans of a journey (shipment.ts).
   */
  readonly pace: number;
  /**
   * How often its parcels meet trouble (exceptions, failed deliveries, returns, customs holds, parcels that go
   * quiet) against the world's norm (1): the weight of those scenarios is multiplied by it.
   */
  readonly trouble: number;
}

type CarrierSpec = Omit<SimCarrier, 'realtime' | 'origins' | 'destinations' | 'country' | 'param'> & {
  country: string;
  origins?: readonly string[];
  destinations?: readonly string[];
};

const carrier = (spec: CarrierSpec): SimCarrier =>
  Object.freeze({
    ...spec,
    origins: spec.origins ?? [spec.country],
    destinations: spec.destinations ?? [],
    ...(PARAM_FORMS.has(spec.key) && { param: PARAM_FORMS.get(spec.key) }),
    realtime: !REALTIME_UNSUPPORTED_CARRIERS.has(spec.key),
  });

// `pace` and `trouble` give each carrier its character, so that a shop's month on the sandbox looks like one:
// express carriers (DHL Express, FedEx, UPS, TNT, SF Express) fast and reliable; national parcel services and posts
// in between; cross-border mail and e-commerce lines (China Post, Yanwen, Cainiao) slow and often in trouble,
// Correios slowest and most error-prone of all; freight forwarding slow but careful.
export const SIM_CARRIERS: readonly SimCarrier[] = Object.freeze([
  // ---- postal operators ----
  carrier({
    key: 3011,
    name: 'China Post',
    alias: 'China Post',
    country: 'CN',
    pace: 1.3,
    trouble: 1.3,
    tel: null,
    homepage: 'https://yjcx.ems.com.cn/',
    postal: true,
    utcOffsetMinutes: 480,
    lang: 'zh-hans',
    serviceTypes: ['International Small Packet', 'EMS'],
  }),
  carrier({
    key: 21051,
    name: 'USPS',
    alias: 'USPS',
    country: 'US',
    pace: 1.0,
    trouble: 0.7,
    tel: '+1 (800) 275-8777',
    homepage: 'https://www.usps.com/',
    postal: true,
    utcOffsetMinutes: -300,
    lang: 'en',
    serviceTypes: ['Priority Mail', 'Ground Advantage', 'Priority Mail International'],
  }),
  carrier({
    key: 11031,
    name: 'Royal Mail',
    alias: 'Royal Mail',
    country: 'GB',
    pace: 0.9,
    trouble: 0.7,
    tel: '+44 03457 740 740',
    homepage: 'https://www.royalmail.com/',
    postal: true,
    utcOffsetMinutes: 0,
    lang: 'en',
    serviceTypes: ['Tracked 48', 'International Tracked'],
  }),
  carrier({
    key: 1151,
    name: 'Australia Post',
    alias: 'Australia Post',
    country: 'AU',
    pace: 1.0,
    trouble: 0.8,
    tel: '13 POST (13 7678)',
    homepage: 'http://auspost.com.au/',
    postal: true,
    utcOffsetMinutes: 600,
    lang: 'en',
    serviceTypes: ['Parcel Post', 'Express Post'],
  }),
  carrier({
    key: 2151,
    name: 'Correios',
    alias: 'Correios Brazil',
    country: 'BR',
    pace: 1.7,
    trouble: 2.0,
    tel: '0800-725-0100',
    homepage: 'http://www.correios.com.br/',
    postal: true,
    utcOffsetMinutes: -180,
    lang: 'pt',
    serviceTypes: ['SEDEX', 'PAC'],
  }),
  carrier({
    key: 7041,
    name: 'DHL Paket',
    alias: 'DHL Paket',
    country: 'DE',
    pace: 0.8,
    trouble: 0.5,
    tel: '+49 228 4333112',
    homepage: 'https://www.dhl.de/en/privatkunden/pakete-empfangen/verfolgen.html',
    postal: true,
    utcOffsetMinutes: 60,
    lang: 'de',
    serviceTypes: ['DHL Paket', 'Warenpost International'],
  }),
  carrier({
    key: 6051,
    name: 'La Poste',
    alias: 'La Poste (Colissimo)',
    country: 'FR',
    pace: 1.0,
    trouble: 0.9,
    tel: '+33 0 810 821 821',
    homepage: 'http://www.laposte.fr/',
    postal: true,
    utcOffsetMinutes: 60,
    lang: 'fr',
    serviceTypes: ['Colissimo', 'Lettre suivie'],
  }),
  carrier({
    key: 10021,
    name: 'Japan Post',
    alias: 'Japan Post',
    country: 'JP',
    pace: 0.8,
    trouble: 0.4,
    tel: null,
    homepage: 'http://www.post.japanpost.jp/',
    postal: true,
    utcOffsetMinutes: 540,
    lang: 'ja',
    serviceTypes: ['EMS', 'International ePacket'],
  }),
  carrier({
    key: 3041,
    name: 'Canada Post',
    alias: 'Canada Post',
    country: 'CA',
    pace: 1.1,
    trouble: 0.8,
    tel: '1-866-607-6301',
    homepage: 'https://www.canadapost.ca/',
    postal: true,
    utcOffsetMinutes: -300,
    lang: 'en',
    serviceTypes: ['Expedited Parcel', 'Xpresspost'],
  }),
  carrier({
    key: 19131,
    name: 'SingPost',
    alias: 'Singapore Post',
    country: 'SG',
    pace: 1.2,
    trouble: 1.1,
    tel: null,
    homepage: 'http://www.singpost.com/',
    postal: true,
    utcOffsetMinutes: 480,
    lang: 'en',
    serviceTypes: ['Registered Mail', 'SpeedPost'],
  }),
  carrier({
    key: 14041,
    name: 'PostNL',
    alias: 'PostNL',
    country: 'NL',
    pace: 0.9,
    trouble: 0.7,
    tel: null,
    homepage: 'https://www.postnl.nl/',
    postal: true,
    utcOffsetMinutes: 60,
    lang: 'en',
    serviceTypes: ['Pakket', 'Packet Tracked'],
  }),
  // In the service's list under the postal group (its parcels are handed to USPS for the last mile) and filed
  // under its parent's country DE; simulated from the United States, where it operates.
  carrier({
    key: 7047,
    name: 'DHL eCommerce US',
    alias: 'DHL eCommerce US',
    country: 'US',
    pace: 1.1,
    trouble: 1.0,
    tel: '+1 317-554-5191',
    homepage: 'https://www.dhl.com/us-en/home/tracking/tracking-ecommerce.html',
    postal: true,
    utcOffsetMinutes: -300,
    lang: 'en',
    serviceTypes: ['SmartMail Parcel Plus', 'Parcel International Direct'],
  }),
  // ---- express, e-commerce and freight carriers ----
  carrier({
    key: 190012,
    name: 'Yanwen',
    alias: 'YANWEN',
    country: 'CN',
    pace: 1.4,
    trouble: 1.6,
    tel: null,
    homepage: 'https://www.yw56.com.cn/',
    postal: false,
    utcOffsetMinutes: 480,
    lang: 'en',
    serviceTypes: ['Yanwen Special Line', 'Yanwen Economy'],
    destinations: ['US', 'GB', 'DE', 'FR', 'AU', 'BR', 'CA', 'JP', 'NL'],
  }),
  carrier({
    key: 190271,
    name: 'Cainiao',
    alias: 'Cainiao',
    country: 'CN',
    pace: 1.2,
    trouble: 1.3,
    tel: null,
    homepage: 'https://www.cainiao.com/',
    postal: false,
    utcOffsetMinutes: 480,
    lang: 'en',
    serviceTypes: ['Cainiao Standard', 'Cainiao Super Economy'],
    destinations: ['US', 'GB', 'DE', 'FR', 'AU', 'BR', 'CA', 'JP', 'NL', 'SG'],
  }),
  carrier({
    key: 190094,
    name: '4PX',
    alias: '4PX',
    country: 'CN',
    pace: 1.1,
    trouble: 1.2,
    tel: null,
    homepage: 'https://www.4px.com/',
    postal: false,
    utcOffsetMinutes: 480,
    lang: 'en',
    serviceTypes: ['4PX Global Standard'],
    destinations: ['US', 'GB', 'DE', 'FR', 'AU', 'CA'],
  }),
  carrier({
    key: 100003,
    name: 'FedEx',
    alias: 'FedEx',
    country: 'US',
    pace: 0.4,
    trouble: 0.35,
    tel: '+1 800-463-3339',
    homepage: 'https://www.fedex.com/',
    postal: false,
    utcOffsetMinutes: -360,
    lang: 'en',
    serviceTypes: ['FedEx Ground', 'FedEx International Priority'],
    origins: ['US', 'US', 'CN', 'DE', 'CA'],
  }),
  carrier({
    key: 100001,
    name: 'DHL Express',
    alias: 'DHL Express',
    country: 'DE',
    pace: 0.35,
    trouble: 0.3,
    tel: '+1 (800) 225-5345',
    homepage: 'https://mydhl.express.dhl/',
    postal: false,
    utcOffsetMinutes: 60,
    lang: 'en',
    serviceTypes: ['Express Worldwide', 'Express 12:00'],
    origins: ['DE', 'CN', 'US', 'GB', 'JP', 'SG'],
  }),
  carrier({
    key: 100002,
    name: 'UPS',
    alias: 'UPS',
    country: 'US',
    pace: 0.45,
    trouble: 0.4,
    tel: '+1 (800) 742-5877',
    homepage: 'https://www.ups.com/',
    postal: false,
    utcOffsetMinutes: -300,
    lang: 'en',
    serviceTypes: ['UPS Ground', 'UPS Worldwide Saver'],
    origins: ['US', 'US', 'DE', 'GB', 'CA'],
  }),
  carrier({
    key: 100012,
    name: 'SF Express',
    alias: 'SF Express',
    country: 'CN',
    pace: 0.5,
    trouble: 0.4,
    tel: '+86 95338',
    homepage: 'https://intl.sf-express.com/',
    postal: false,
    utcOffsetMinutes: 480,
    lang: 'zh-hans',
    serviceTypes: ['SF International Standard Express', 'SF Economy Express'],
  }),
  carrier({
    key: 100010,
    name: 'DPD UK',
    alias: 'DPD (UK)',
    country: 'GB',
    pace: 0.6,
    trouble: 0.5,
    tel: '0121 275 0500',
    homepage: 'https://www.dpd.co.uk/',
    postal: false,
    utcOffsetMinutes: 0,
    lang: 'en',
    serviceTypes: ['Next Day', 'DPD Classic'],
    destinations: ['GB', 'GB', 'GB', 'DE', 'FR', 'NL'],
  }),
  carrier({
    key: 100005,
    name: 'GLS',
    alias: 'GLS',
    country: 'GB',
    pace: 0.8,
    trouble: 0.7,
    tel: null,
    homepage: 'https://gls-group.eu/EU/en/home',
    postal: false,
    utcOffsetMinutes: 0,
    lang: 'en',
    serviceTypes: ['BusinessParcel', 'EuroBusinessParcel'],
    origins: ['GB', 'DE', 'NL', 'FR'],
    destinations: ['GB', 'DE', 'NL', 'FR'],
  }),
  carrier({
    key: 100004,
    name: 'TNT',
    alias: 'TNT',
    country: 'NL',
    pace: 0.55,
    trouble: 0.5,
    tel: '+800 820 9868',
    homepage: 'https://www.tnt.com/',
    postal: false,
    utcOffsetMinutes: 60,
    lang: 'en',
    serviceTypes: ['Express', 'Economy Express'],
    origins: ['NL', 'DE', 'FR', 'GB'],
  }),
  carrier({
    key: 100009,
    name: 'Toll',
    alias: 'Toll',
    country: 'AU',
    pace: 1.0,
    trouble: 0.9,
    tel: null,
    homepage: 'https://www.tollgroup.com/',
    postal: false,
    utcOffsetMinutes: 600,
    lang: 'en',
    serviceTypes: ['Toll IPEC Road Express', 'Toll Priority'],
    destinations: ['AU', 'AU', 'AU', 'SG'],
  }),
  carrier({
    key: 101066,
    name: 'Direct Freight Express',
    alias: 'Direct Freight Express',
    country: 'AU',
    pace: 1.1,
    trouble: 1.0,
    tel: '+61-1300 347 397',
    homepage: 'https://www.directfreight.com.au/',
    postal: false,
    utcOffsetMinutes: 600,
    lang: 'en',
    serviceTypes: ['Road Express'],
    destinations: ['AU'],
  }),
  carrier({
    key: 100766,
    name: 'DHL Global Forwarding',
    alias: 'DHL Global Forwarding',
    country: 'DE',
    pace: 1.6,
    trouble: 0.8,
    tel: null,
    homepage: 'https://www.dhl.com/us-en/home/global-forwarding.html',
    postal: false,
    utcOffsetMinutes: 60,
    lang: 'en',
    serviceTypes: ['Air Freight', 'Ocean Freight'],
    origins: ['DE', 'CN', 'US'],
  }),
]);

const BY_KEY: ReadonlyMap<number, SimCarrier> = new Map(SIM_CARRIERS.map((c) => [c.key, c]));

/** The carrier with this code: simulated in detail, else generic (any code of the service's list), else undefined. */
export function findCarrier(key: number): SimCarrier | undefined {
  return BY_KEY.get(key) ?? catalogCarrier(key);
}

const POSTAL_BY_COUNTRY: ReadonlyMap<string, SimCarrier> = new Map(
  // 7047 is postal by the list but not a country's operator: the country's own post comes first.
  SIM_CARRIERS.filter((c) => c.postal && c.key !== 7047).map((c) => [c.country as string, c]),
);

/** The postal operator of a country (the destination provider of a postal shipment), if simulated. */
export function postalCarrierOf(countryIso: string): SimCarrier | undefined {
  return POSTAL_BY_COUNTRY.get(countryIso.toUpperCase());
}

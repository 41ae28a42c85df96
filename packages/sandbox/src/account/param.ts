// The extra tracking parameter (`param`, v1 `extra_param`): required for some carriers, and checked
// against the form the carrier needs.

import { ItemReject } from './envelope.js';
import type { SimCarrier } from './world.js';
import { PARAM_REQUIRED_CODE } from './world.js';

/** Longest param accepted in a request (responses carry at most 10 characters; channel forms are longer). */
const PARAM_MAX = 50;

const FORMS: Readonly<Record<NonNullable<SimCarrier['param']>, RegExp>> = {
  // <destination_country_code>-<postal_code>
  CountryPostalCode: /^[A-Za-z]{2}-[A-Za-z0-9 ]{2,10}$/,
  PostalCode: /^[A-Za-z0-9 -]{2,10}$/,
  PhoneLast4Digits: /^\d{4}$/,
  Date: /^\d{4}-\d{2}-\d{2}$/,
};

/**
 * The param for a registration with `carrier`: missing when required → the carrier's code
 * (-18010018/19/20/22); wrong form or too long → -18010011 "value of param invalid".
 * `field` is the request's name for it (v1 `extra_param`).
 */
export function checkParam(carrier: SimCarrier, param: string | undefined, field: string): string | null {
  const value = param === undefined ? '' : param.trim();
  const form = carrier.param;
  if (value === '') {
    if (form) throw new ItemReject(PARAM_REQUIRED_CODE[form]);
    return null;
  }
  if (value.length > PARAM_MAX) throw new ItemReject(-18010011, field);
  if (form) {
    if (!FORMS[form].test(value)) throw new ItemReject(-18010011, field);
    if (form === 'Date' && !Number.isFinite(Date.parse(`${value}T00:00:00Z`))) throw new ItemReject(-18010011, field);
  }
  return value;
}

/** `param_type` of a record. The service's enum has no name for a date parameter: reported as None. */
export function paramType(carrier: SimCarrier | undefined): string {
  const form = carrier?.param;
  return form === undefined || form === 'Date' ? 'None' : form;
}

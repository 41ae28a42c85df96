// A carrier's extra parameter made from the columns of a shop's export (its postal code, country and phone), for
// the carriers that need one (service/param-forms.ts), where the row gives no param of its own.

import { PARAM_FORMS, type ParamForm } from '@trk/service/param-forms.js';
import type { InputLayout } from './read.js';
import type { ParamSource } from './shop-columns.js';

/** A param made from a row's cells, and the columns it came from (for the summary's note). */
export interface MadeParam {
  value: string;
  columns: string[];
}

/** Which sources each form is made of. */
const SOURCES: Readonly<Record<ParamForm, readonly ParamSource[]>> = {
  CountryPostalCode: ['country', 'postal_code'],
  PostalCode: ['postal_code'],
  PhoneLast4Digits: ['phone'],
  Date: [],
};

/**
 * The param `carrier` needs, made from `cells`; undefined where it needs none, or where a cell it needs is empty or
 * not of the form (a country written as a name, a phone with fewer than 4 digits): the service then says what is
 * missing.
 */
export function paramFromColumns(
  carrier: number | undefined,
  cells: readonly string[],
  layout: InputLayout,
): MadeParam | undefined {
  const form = carrier === undefined ? undefined : PARAM_FORMS.get(carrier);
  const sources = layout.paramSources;
  if (form === undefined || sources === undefined || SOURCES[form].length === 0) return undefined;
  const cell = (source: ParamSource) => {
    const at = sources[source];
    return at === undefined ? '' : (cells[at] ?? '').trim();
  };
  const columns = SOURCES[form].map((s) => layout.header[sources[s] ?? -1] ?? '');
  const postal = cell('postal_code');
  switch (form) {
    case 'PostalCode':
      return /^[A-Za-z0-9 -]{2,10}$/.test(postal) ? { value: postal, columns } : undefined;
    case 'CountryPostalCode': {
      const country = cell('country');
      return /^[A-Za-z]{2}$/.test(country) && /^[A-Za-z0-9 ]{2,10}$/.test(postal)
        ? { value: `${country.toUpperCase()}-${postal}`, columns }
        : undefined;
    }
    case 'PhoneLast4Digits': {
      const digits = cell('phone').replace(/\D/g, '');
      return digits.length >= 4 ? { value: digits.slice(-4), columns } : undefined;
    }
    default:
      return undefined;
  }
}

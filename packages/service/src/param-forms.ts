// The extra tracking parameter some carriers need at registration (`param`, v1 `extra_param`), and its forms.
//
// Decision: the service publishes which carrier needs which form in an "additional-parameter list" whose address
// and shape the specification does not show. trk keeps the carriers it knows here instead, the ones the service's
// documentation and its answers name; the emulator's carriers take their forms from the same table. A carrier that
// needs one and is missing here is refused by the service with the codes below, whose messages say which column of
// an export gives the value (service/codes.ts).

/** The service's `param_type` names of the forms, and a date (which its enum does not name). */
export type ParamForm = 'CountryPostalCode' | 'PostalCode' | 'PhoneLast4Digits' | 'Date';

/** Carrier code → the form of the param it needs. */
export const PARAM_FORMS: ReadonlyMap<number, ParamForm> = new Map([
  [100012, 'PhoneLast4Digits'], // SF Express
  [100010, 'PostalCode'], // DPD (UK)
  [100005, 'CountryPostalCode'], // GLS
  [100009, 'Date'], // Toll
]);

/** The rejection the service answers when a carrier's param is missing, by form. */
export const PARAM_REQUIRED_CODE: Readonly<Record<ParamForm, number>> = {
  CountryPostalCode: -18010018,
  PostalCode: -18010019,
  PhoneLast4Digits: -18010020,
  Date: -18010022,
};

/** What a form is made of, in words, for messages. */
export const PARAM_FORM_WORDS: Readonly<Record<ParamForm, string>> = {
  CountryPostalCode: "the destination's country code and postal code",
  PostalCode: "the destination's postal code",
  PhoneLast4Digits: "the last 4 digits of the recipient's phone",
  Date: 'a date (yyyy-mm-dd)',
};

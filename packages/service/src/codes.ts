// Every error code of the service in one table: the service's meaning (with {0}/{1} placeholders, as the
// service fills them) and what a user should do about it. The client, the commands and the emulator all
// read from here, so a code is described once.

import type { ApiVersion } from './vocabulary.js';

/** What to do when the service refuses the key, or there is none. */
export const LOGIN_HINT = 'run "trk auth login" or set TRK_API_KEY';

export interface CodeInfo {
  /** The service's meaning, with `{0}`, `{1}` placeholders. */
  readonly message: string;
  /** What the user should do next; empty when there is nothing useful to say. */
  readonly hint: string;
  /** Authentication failures exit 4; everything else is decided by context. */
  readonly auth?: true;
  /**
   * A refusal of the account, not of the item (quota exhausted, daily limit, no webhook URL): every other item
   * would meet it too, so a run stops with one line naming the fix instead of rejecting item after item.
   */
  readonly account?: true;
  /** Versions that know the code (all when absent). */
  readonly versions?: readonly ApiVersion[];
}

const V2_ONLY = ['v2', 'v2.1'] as const;

export const SERVICE_CODES: Readonly<Record<number, CodeInfo>> = {
  [-18010001]: {
    message: 'IP address not in the whitelist',
    hint: "add this machine's address to the whitelist in the console, or run from an allowed address",
    auth: true,
  },
  [-18010002]: { message: 'invalid API key', hint: LOGIN_HINT, auth: true },
  [-18010003]: { message: 'internal error of the service', hint: 'retry later' },
  [-18010004]: {
    message: 'account disabled',
    hint: "contact the service's support to re-enable the account",
    auth: true,
  },
  [-18010005]: { message: 'unauthorized access', hint: 'check the API key and the account permissions', auth: true },
  [-18010010]: { message: 'required data {0} missing', hint: 'add the missing field' },
  [-18010011]: { message: 'value of {0} invalid', hint: 'correct the value' },
  [-18010012]: { message: 'format of {0} invalid', hint: 'tracking numbers are 5 to 50 letters, digits or hyphens' },
  [-18010013]: { message: 'submitted data invalid', hint: 'check the request body (trk api --data) or report a bug' },
  [-18010014]: { message: 'too many numbers in request', hint: 'send at most 40 items per request' },
  [-18010015]: { message: 'value {0} of field {1} invalid', hint: 'correct the value' },
  [-18010016]: {
    message: 'last-mile carrier can only be set for postal services',
    hint: 'drop --final-carrier, or register under a postal carrier',
  },
  [-18010018]: {
    message: 'extra field required: country code and postal code',
    hint:
      'pass --param <country>-<postal code>, e.g. --param US-10001; in a file, a param column, or columns ' +
      'Postal Code and Country (or Shipping Zip and Shipping Country)',
  },
  [-18010019]: {
    message: 'extra field required: postal code',
    hint: 'pass --param <postal code>; in a file, a param column, or a Postal Code (or Shipping Zip) column',
  },
  [-18010020]: {
    message: 'extra field required: phone number',
    hint:
      'pass --param with the last 4 digits of the phone; in a file, a param column, or a Phone (or Shipping ' +
      'Phone) column',
  },
  [-18010022]: {
    message: 'extra information (a date) required to continue tracking',
    hint: 'pass --param with the date as yyyy-mm-dd',
  },
  [-18010201]: { message: 'webhook URL required', hint: 'save a webhook URL in the console' },
  [-18010202]: { message: 'webhook URL format wrong', hint: 'correct the webhook URL in the console' },
  [-18010203]: { message: 'webhook test failed; HTTP status {0}', hint: 'make the webhook answer 200' },
  [-18010204]: {
    message: 'webhook URL not set; cannot push',
    hint: 'save a webhook URL in the console (Settings, Webhook)',
    account: true,
  },
  [-18010205]: { message: 'IP format wrong', hint: 'correct the whitelist entry in the console' },
  [-18010206]: { message: 'push failed', hint: 'retry later' },
  [-18019901]: { message: 'number {0} already registered', hint: '' },
  [-18019902]: { message: 'number {0} not registered', hint: 'register it first with "trk register"' },
  [-18019903]: { message: 'carrier cannot be detected', hint: 'register again with --carrier <code>' },
  [-18019904]: { message: 'only stopped numbers can be re-tracked', hint: '' },
  [-18019905]: { message: 'each number can be re-tracked once only', hint: 'register it again after deleting it' },
  [-18019906]: { message: 'only numbers being tracked can be stopped', hint: '' },
  [-18019907]: {
    message: 'daily limit exceeded',
    hint: 'wait until tomorrow (UTC) or raise the daily limit in the console',
    account: true,
  },
  [-18019908]: { message: 'quota exhausted', hint: 'buy more quota in the console', account: true },
  [-18019909]: { message: 'no tracking information yet', hint: 'push again once the first result has arrived' },
  [-18019910]: { message: 'carrier code {0} incorrect', hint: 'look the code up with "trk carriers"' },
  [-18019911]: {
    message: 'this carrier cannot be registered now',
    hint: 'retry later or use another carrier',
    versions: V2_ONLY,
  },
  [-18019912]: {
    message: 'account not authorised for real time',
    hint: 'ask the service to enable real-time queries for the account',
    versions: V2_ONLY,
    auth: true,
  },
  [-18019801]: {
    message: 'several carriers registered for the number; give carrier_old',
    hint: 'pass --from <carrier>',
  },
  [-18019802]: { message: 'carrier_new {0} may be wrong', hint: 'check the new carrier code' },
  [-18019803]: { message: 'old and new carrier are the same', hint: '' },
  [-18019804]: { message: 'carrier_new or final_carrier_new must be specified', hint: 'pass --to or --final-to' },
  [-18019805]: {
    message: 'number {1} not registered under carrier {0}, or carrier_old wrong',
    hint: 'check --from against "trk list --number"',
  },
  [-18019806]: { message: 'stopped numbers cannot change carrier; reactivate first', hint: 'run "trk retrack" first' },
  [-18019807]: { message: 'carrier change limit exceeded', hint: 'a number can change carrier 5 times at most' },
  [-18019808]: {
    message: 'result of latest registration or change not yet returned',
    hint: 'retry once the first result has arrived',
  },
  [-18019809]: { message: 'same registration already exists; duplicate not allowed', hint: '' },
  [-18019810]: { message: 'records matching the update condition are not unique', hint: 'pass --from <carrier>' },
  [-18019811]: { message: 'no valid item to change', hint: '' },
  [-18019815]: { message: 'carrier interface timed out', hint: 'retry later', versions: V2_ONLY },
  [-18019816]: { message: 'carrier interface error; no result', hint: 'retry later', versions: V2_ONLY },
  [-18019817]: { message: 'system error; charge not processed', hint: 'retry later', versions: V2_ONLY },
  [-18019818]: {
    message: 'carrier does not support real time',
    hint: 'use "trk info" for the stored result',
    versions: V2_ONLY,
  },
};

/** Fill `{0}`, `{1}` placeholders of a code's message. */
export function formatCodeMessage(code: number, ...args: (string | number)[]): string {
  const template = SERVICE_CODES[code]?.message ?? `error ${code}`;
  return template.replace(/\{(\d)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));
}

export function codeInfo(code: number): CodeInfo | undefined {
  return SERVICE_CODES[code];
}

/** Whether a rejection refuses the account rather than the item (see CodeInfo.account), authentication included. */
export function isAccountRefusal(code: number): boolean {
  const info = SERVICE_CODES[code];
  return info?.account === true || info?.auth === true;
}

// The request fields trk reads from input columns and flags, named as the service's v2 request fields. Their
// order is the order of a request's digest (src/items/digest.ts): a field is added at the end.

export const ITEM_FIELDS = [
  'number',
  'carrier',
  'param',
  'tag',
  'lang',
  'email',
  'final_carrier',
  'auto_detection',
  'order_no',
  'order_time',
  'remark',
  'carrier_old',
  'carrier_new',
  'final_carrier_old',
  'final_carrier_new',
] as const;
export type ItemField = (typeof ITEM_FIELDS)[number];

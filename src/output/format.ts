// Output formats a command may be asked for (-o). `wide` is a table with every column; `ids` prints what names each
// row (the number, and the carrier when the row has one), one a line, for item commands to read back; `text` is a
// short plain summary of each parcel, to paste into a reply to a customer (tracking details only).
export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'ndjson', 'csv', 'ids', 'text'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What a command printing rows honours: every format but `text`, which only commands of tracking details print. */
export const ROW_FORMATS: readonly OutputFormat[] = OUTPUT_FORMATS.filter((f) => f !== 'text');

/** Records a list shows on a terminal unless --all or --limit: a few screens, shown at once. */
export const TERMINAL_LIST_LIMIT = 100;

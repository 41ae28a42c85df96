// Output formats a command may be asked for (-o). `wide` is a table with every column; `ids` prints what names each
// row (the number, and the carrier when the row has one), one a line, for item commands to read back.
export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'ndjson', 'csv', 'ids'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Records a list shows on a terminal unless --all or --limit: a few screens, shown at once. */
export const TERMINAL_LIST_LIMIT = 100;

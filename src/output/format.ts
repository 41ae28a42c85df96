export const OUTPUT_FORMATS = ['table', 'json', 'csv', 'ndjson'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

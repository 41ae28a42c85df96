// The bulk path, as commands use it: `runBulkFromFile` for `-f FILE`; the pieces for tests and benchmarks.

export { runBulkFromFile, planLines, type BulkFileOptions, type BulkPlan, type BulkReport } from './run-file.js';
export { BULK_OPERATIONS, COLUMN_NAMES, type BulkOperation, type ColumnName, type RowValues } from './fields.js';
export { summaryLines, type BulkSummary } from './results.js';
export { createSharedPacer, budgetFile, type SharedPacer, type SharedPacerOptions } from './shared-budget.js';
export { prepareInput, openRows, type InputLayout, type InputRow, type InputSource } from './input.js';
export { scanInput, type ScanResult } from './scan.js';
export { runChunks, stoppablePacer, type RunnerOptions, type RunnerResult } from './runner.js';

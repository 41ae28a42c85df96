// What a caller hands an item run (src/items/run.ts) and what it gets back: the flags every item command takes,
// the run's options, and its report.

import type { ApiClient } from '../api/client.js';
import type { Pacer } from '../pacing/pacer.js';
import type { ItemResults, TrackListFilter } from '@trk/service/types.js';
import type { ExitCode } from '../core/exit-codes.js';
import type { CarrierResolver } from './check.js';
import type { ItemOperation, RowValues } from './fields.js';
import type { ItemPlan } from './plan.js';
import type { ProgressMode } from './progress.js';
import type { RunSummary } from './results.js';
import type { ItemSource, SourceFlags } from './source.js';

/** The flags every item command takes (see src/commands/items/flags.ts). */
export interface ItemFlags extends SourceFlags {
  /** `--dry-run`: check and report, send nothing. */
  dryRun?: boolean | undefined;
  /** `--restart`: discard the journal of an interrupted run and start from the top. */
  restart?: boolean | undefined;
  /** `--again`: send an input that was fully sent before. */
  again?: boolean | undefined;
  /** `--rejects FILE`: the rejected rows, ready to fix and import again. */
  rejects?: string | undefined;
  /** `--skip-invalid`: send the valid rows, set the invalid ones aside. */
  skipInvalid?: boolean | undefined;
  /** `--column NAME=FIELD`. */
  columns?: readonly string[] | undefined;
  /** `--ignore-column NAME`: columns passed over on purpose. */
  ignoreColumns?: readonly string[] | undefined;
  /** `--carrier-map FILE`: carrier aliases of this run (name,code rows). */
  carrierMap?: string | undefined;
  /** `--delimiter`: the columns' separator (`;`, `tab`, ...), instead of the one of the header line. */
  delimiter?: string | undefined;
}

export interface ItemRunOptions {
  operation: ItemOperation;
  flags: ItemFlags;
  /** Values from flags for every row (`--carrier`, `--tag`, ...), by field; a row's own cell wins. */
  defaults?: RowValues | undefined;
  /** gettracklist: the other filters of `trk list`. */
  listFilter?: TrackListFilter | undefined;
  /** Rejection codes counted as done (delete --ignore-missing). */
  alsoAlready?: readonly number[] | undefined;
  /** Keep the service's items for output; off, only counts are kept. Default true. */
  collect?: boolean | undefined;
  /** Each settled chunk's items as they come. */
  onItems?: ((results: ItemResults) => void) | undefined;
  /**
   * Once every request has settled and the run did not fail, before the summary: the output is finished first,
   * so that on a terminal the summary follows the table rather than coming before it.
   */
  beforeSummary?: (() => Promise<void>) | undefined;
  /** Carrier names in the input → codes. */
  resolveCarrier?: CarrierResolver | undefined;
  /** Called once the input is checked and before anything is sent (delete's confirmation). */
  confirm?: ((plan: ItemPlan) => Promise<void>) | undefined;
  /** Work in progress at once; default 8. */
  concurrency?: number | undefined;
  /** Default: none for arguments; for files and pipes a bar on a terminal, a line every 30 s elsewhere. */
  progress?: ProgressMode | undefined;
  /** The client and its pacer; default the context's (paced by the budget shared by every trk on the key). */
  client?: ApiClient | undefined;
  pacer?: Pacer | undefined;
  /** Tuning for tests. */
  verifyDelayMs?: number | undefined;
  retryBaseMs?: number | undefined;
}

export interface ItemReport {
  plan: ItemPlan;
  /** Absent for a dry run and a run not sent again. */
  summary?: RunSummary;
  /** The merged accepted/rejected items (empty unless `collect`). */
  results: ItemResults;
  exitCode: ExitCode;
  source: ItemSource['kind'];
}

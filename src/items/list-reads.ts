// The chunk runner's reads of the service's list: the lookups of chunks whose answers were lost
// (src/items/lost-answers.ts) and the chunks of `trk list` read by number. Each read goes through trackListPages,
// the one reader of the list, and every page it asks for is sent by one of the runner's workers, with the run's
// retries and holds, before anything else waiting. The run waits for the reads under way, which may still ask
// for pages; once it is over, what they still asked for ends them unsettled.

import type { ApiClient } from '../api/client.js';
import { trackListPages, type TrackListPage, type TrackListQuery } from '../api/pages.js';
import type { TrackListFilter } from '@trk/service/types.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import {
  keyOf,
  takeWanted,
  type Answer,
  type PageWork,
  type Pending,
  type RunnerCalls,
  type Work,
} from './chunk-work.js';

/** What a page still asked for hears once the run is over: the read it belongs to ends unsettled. */
class RunOver extends Error {}

export class ListReads {
  readonly #client: ApiClient;
  readonly #version: ApiVersion;
  readonly #runner: RunnerCalls;
  /** Pages the reads of the list ask for, in the order asked: taken before anything else. */
  readonly #pages: PageWork[] = [];
  /** Pages asked for and not answered yet (ended with the run, if it ends first). */
  readonly #asked = new Set<PageWork>();
  /** Reads of the list under way: the run waits for them, as they may still ask for pages. */
  readonly #reads = new Set<Promise<void>>();
  #over = false;

  constructor(client: ApiClient, version: ApiVersion, runner: RunnerCalls) {
    this.#client = client;
    this.#version = version;
    this.#runner = runner;
  }

  /** Reads under way. */
  get size(): number {
    return this.#reads.size;
  }

  /** The next page to send whose read still wants it. */
  nextPage(): Work | undefined {
    return takeWanted(this.#pages);
  }

  /** Starts a read of the list; the page it asks for first, when it is the next to go. */
  start(read: () => Promise<void>): Work | undefined {
    const reading: Promise<void> = read()
      // Pages that cannot be right (PagingError), a body the version cannot express: the run stops.
      .catch((err) => {
        if (!(err instanceof RunOver)) this.#runner.fail(err);
      })
      .finally(() => {
        this.#reads.delete(reading);
        this.#runner.wake();
      });
    this.#reads.add(reading);
    return this.nextPage();
  }

  /** The pages of `query` for `chunks`, each sent by a worker; `window` pages in flight at most. */
  pagesOf(
    kind: PageWork['kind'],
    chunks: Pending[],
    query: TrackListQuery,
    window?: number,
  ): AsyncGenerator<TrackListPage<Record<string, unknown>>> {
    const send = (body: unknown, stop: AbortSignal) => this.#ask(kind, chunks, body, stop);
    return trackListPages({ client: this.#client, version: this.#version, query, window, send });
  }

  /** gettracklist: the records of a chunk's numbers, every page, several in flight as a list's are. */
  async listChunk(p: Pending, filter: TrackListFilter | undefined): Promise<void> {
    const wanted = new Set(p.open.map((r) => r.key));
    const query = { items: p.open.map((r) => r.item), filter };
    for await (const page of this.pagesOf('page', [p], query)) {
      // One number is a substring match for the service: keep the exact ones only.
      p.accepted.push(...page.records.filter((record) => wanted.has(keyOf(record.number))));
    }
    const found = new Set(p.accepted.map((r) => keyOf(r.number)));
    this.#runner.settle(p, p.open.filter((r) => !found.has(r.key)).length);
  }

  /** The run is over: pages still asked for end their reads unsettled, and the reads are let finish. */
  async end(): Promise<void> {
    this.#over = true;
    for (const work of this.#asked) work.drop(new RunOver());
    await Promise.all(this.#reads);
  }

  #ask(kind: PageWork['kind'], chunks: Pending[], body: unknown, stop: AbortSignal): Promise<Answer> {
    if (this.#over) return Promise.reject(new RunOver());
    return new Promise((resolve, reject) => {
      const work: PageWork = {
        kind,
        chunks,
        body,
        dropped: false,
        answer: (envelope) => {
          this.#asked.delete(work);
          resolve(envelope);
        },
        drop: (reason) => {
          if (!this.#asked.delete(work)) return;
          work.dropped = true;
          reject(reason);
        },
      };
      this.#asked.add(work);
      // The read ended early (pages that cannot be right): what it still asked for is not sent.
      stop.addEventListener('abort', () => work.drop(stop.reason), { once: true });
      this.#pages.push(work);
      this.#runner.wake();
    });
  }
}

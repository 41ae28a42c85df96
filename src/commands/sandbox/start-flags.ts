// The flags of `trk sandbox start` that inject faults, and the parsers of its numbers.

import type { Command, OptionValues } from '@commander-js/extra-typings';
import { InvalidArgumentError } from '../commander.js';
import { Option, nonNegativeInt } from '../define.js';

export const share =
  (what: string) =>
  (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !(n >= 0 && n <= 1))
      throw new InvalidArgumentError(`${what} must be a number from 0 to 1.`);
    return n;
  };

export const nonNegativeNumber =
  (what: string) =>
  (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !(n >= 0) || !Number.isFinite(n))
      throw new InvalidArgumentError(`${what} must be a number >= 0.`);
    return n;
  };

/** The faults `trk sandbox start` can inject: latency, failures, lost answers, 429 bursts, overlapping pages. */
export function withFaults<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>) {
  return c
    .addOption(new Option('--latency <ms>', 'delay every answer').argParser(nonNegativeInt('--latency')))
    .addOption(new Option('--jitter <ms>', 'random extra delay up to this').argParser(nonNegativeInt('--jitter')))
    .addOption(
      new Option('--failure-rate <share>', 'share of requests answered 500/503 (0..1)').argParser(
        share('--failure-rate'),
      ),
    )
    .addOption(
      new Option('--drop-rate <share>', 'share of requests processed whose answer is lost (0..1)').argParser(
        share('--drop-rate'),
      ),
    )
    .addOption(
      new Option('--burst-429 <n>', 'answer 429 to the next n requests').argParser(nonNegativeInt('--burst-429')),
    )
    .addOption(
      new Option('--burst-every <ms>', 'periodic 429 bursts every this many ms').argParser(
        nonNegativeInt('--burst-every'),
      ),
    )
    .addOption(new Option('--burst-for <ms>', '...each lasting this many ms').argParser(nonNegativeInt('--burst-for')))
    .option('--no-retry-after', 'answer 429 without Retry-After')
    .addOption(
      new Option('--page-overlap <n>', 'list pages repeat n records of the page before').argParser(
        nonNegativeInt('--page-overlap'),
      ),
    );
}

// Answers of gettrackinfo from the documented fixtures, for the commands that print tracking details.
import type { Envelope } from '@trk/service/types.js';
import type { Handler } from '../fake-context.js';
import { fixtureJson } from '../fixture-files.js';

export const fixture = (name: string) => fixtureJson<Envelope<Record<string, unknown>>>(`doc-v2/${name}`);
export const correios = fixture('gettrackinfo_correios_2151.json');
export const yanwen = fixture('gettrackinfo_yanwen_190012.json');
const DETAILS = [...correios.data!.accepted!, ...yanwen.data!.accepted!];

/** Answers gettrackinfo (and real time) from the fixtures; unknown numbers are rejected. */
export const trackInfo: Handler = (_op, body) => {
  const items = body as { number: string }[];
  return {
    code: 0,
    data: {
      accepted: DETAILS.filter((d) => items.some((i) => i.number === d.number)),
      rejected: items
        .filter((i) => !DETAILS.some((d) => d.number === i.number))
        .map((i) => ({
          number: i.number,
          error: { code: -18019902, message: `The number ${i.number} is not registered.` },
        })),
    },
  };
};

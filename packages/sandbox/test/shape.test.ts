// The shape comparison the recorded-answer contract rests on: what it reports and what it lets pass.
import { describe, expect, it } from 'vitest';
import { shapeDifferences } from './shape.js';

const lines = (recorded: unknown, emulated: unknown) =>
  shapeDifferences(recorded, emulated).map((d) => `${d.kind} ${d.path}`);

describe('shapeDifferences', () => {
  it('reports keys missing and extra, at any depth, arrays merged', () => {
    expect(lines({ a: 1, b: { c: [{ d: 1 }, { e: 2 }] } }, { a: 2, b: { c: [{ d: 3, f: 4 }] }, g: null })).toEqual([
      'missing b.c[].e',
      'extra b.c[].f',
      'extra g',
    ]);
  });

  it('reports types and string formats, dates and times above all', () => {
    expect(
      lines(
        { n: 1, s: 'x', t: '2026-06-01T00:00:00Z', o: '+08:00', v1: '2026-06-01 08:00:00' },
        { n: '1', s: 2, t: '2026-06-01T00:00:00+00:00', o: null, v1: '2026-06-01 08:00' },
      ),
    ).toEqual(['type n', 'type s', 'format t', 'format v1']);
  });

  it('lets null fit any type, an empty string any string, an integer a number', () => {
    expect(lines({ a: null, b: 'x', c: '2026-06-01', d: 1.5 }, { a: 'text', b: null, c: '', d: 2 })).toEqual([]);
  });

  it('checks enumerated fields on both sides', () => {
    expect(lines({ package_status: 'Delivered', e: 40 }, { package_status: 'Teleported', e: 40 })).toEqual([
      'enum package_status',
    ]);
    expect(lines({ e: 5000 }, { e: 40 })).toEqual(['enum e']);
  });

  it('finds nothing between an answer and itself', () => {
    const answer = {
      code: 0,
      data: { accepted: [{ number: 'RR1', carrier: 3011, time: '2026-06-01T00:00:00Z' }], rejected: [] },
    };
    expect(lines(answer, structuredClone(answer))).toEqual([]);
  });
});

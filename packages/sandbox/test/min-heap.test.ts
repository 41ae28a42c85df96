import { describe, expect, it } from 'vitest';
import { MinHeap } from '../src/min-heap.js';
import { mulberry32 } from '../src/world/random.js';

describe('MinHeap', () => {
  it('pops in priority order, whatever the push order', () => {
    const rng = mulberry32(7);
    const values = Array.from({ length: 500 }, () => rng.int(0, 1000));
    const heap = new MinHeap<number>((n) => n);
    for (const v of values) heap.push(v);
    expect(heap.size).toBe(500);
    const out: number[] = [];
    for (let v = heap.pop(); v !== undefined; v = heap.pop()) out.push(v);
    expect(out).toEqual([...values].sort((a, b) => a - b));
    expect(heap.peek()).toBeUndefined();
  });

  it('heapifies initial items and mixes pushes and pops', () => {
    const heap = new MinHeap<{ due: number }>((e) => e.due, [{ due: 5 }, { due: 1 }, { due: 9 }, { due: 3 }]);
    expect(heap.pop()?.due).toBe(1);
    heap.push({ due: 2 });
    expect(heap.peek()?.due).toBe(2);
    expect([heap.pop()?.due, heap.pop()?.due, heap.pop()?.due, heap.pop()?.due]).toEqual([2, 3, 5, 9]);
    heap.push({ due: 4 });
    heap.clear();
    expect(heap.size).toBe(0);
  });
});

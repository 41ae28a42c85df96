// --jq over captured output: jq's semantics on each JSON value a command writes, in whatever pieces it writes it.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestIO } from '../test-io.js';
import { jqOutput, loadJqProgram, type JqLimits } from '../../src/output/jq.js';
import type { JqWorker } from '../../src/output/jq-worker.js';
import { InterruptedError, UsageError } from '../../src/core/errors.js';

const LIMITS: JqLimits = { timeoutMs: 30_000 };
const started: JqWorker[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((jq) => jq.close()));
});

async function load(program: string, limits: JqLimits = LIMITS): Promise<JqWorker> {
  const jq = await loadJqProgram(program, limits);
  started.push(jq);
  return jq;
}

async function through(
  program: string,
  pieces: readonly string[],
  tty = false,
  opts: { limits?: JqLimits; signal?: AbortSignal } = {},
) {
  const io = createTestIO({ tty });
  const filtered = jqOutput(io, await load(program, opts.limits), program, opts.signal);
  const seen: string[] = [];
  for (const p of pieces) {
    filtered.io.out(p);
    await filtered.settled();
    seen.push(io.stdoutText());
  }
  const failure = await filtered.finish();
  return { out: io.stdoutText(), err: io.stderrText(), seen, failure };
}

describe('jq output', () => {
  it('holds a value written in pieces until it is complete, then runs the program once on it', async () => {
    // How trk list --json writes: the array opened, rows page by page, closed at the end.
    const r = await through('map(.n) | add', ['[\n  {"n": 1}', ',\n  {"n": "}\\"]"}', ',\n  {"n": 3}', '\n]\n']);
    expect(r.seen.slice(0, 3)).toEqual(['', '', '']);
    // jq saw the whole array (the string with brackets inside did not end it early): adding it to 1 is jq's error.
    expect(r.failure?.message).toMatch(/^--jq: number \(1\) and string .* cannot be added$/);
    const sum = await through('map(.n | numbers) | add', ['[{"n": 1},', ' {"n": "}]"},', ' {"n": 3}]\n']);
    expect(sum.out).toBe('4\n');
  });

  it('runs on each line of NDJSON as it comes, as jq runs on each input', async () => {
    const r = await through('.number', ['{"number":"A"}\n', '{"number":"B"}\n{"number":"C"}\n']);
    expect(r.seen).toEqual(['A\n', 'A\nB\nC\n']);
  });

  it('strings raw with their blanks; other values compact when piped, pretty-printed by jq on a terminal', async () => {
    expect((await through('.a, .b, .c', ['{"a":"  x  ","b":{"k":[1,2]},"c":1.50}\n'])).out).toBe(
      '  x  \n{"k":[1,2]}\n1.50\n',
    );
    expect((await through('.b', ['{"b":{"k":[1,2]}}\n'], true)).out).toBe('{\n  "k": [\n    1,\n    2\n  ]\n}\n');
    expect((await through('empty', ['{"b":1}\n'])).out).toBe('');
  });

  it(
    'a failing program prints nothing of the value and stops the output; the failure is reported at ' + 'the end',
    async () => {
      const r = await through('.[] | if . == 2 then error("two") else . end', ['[1,2,3]\n', '[4]\n']);
      expect(r.out).toBe('');
      expect(r.failure?.message).toBe('--jq: two');
      expect(r.failure?.exitCode).toBe(1);
    },
  );

  it('a program that does not compile is a usage error naming the place, and never runs', async () => {
    await expect(load('.[] | select(.a ==')).rejects.toThrow(UsageError);
    await expect(load('.[] | select(.a ==')).rejects.toThrow(/^--jq: syntax error, .*line 1, column \d+$/);
    await expect(load('nosuchfunction(1)')).rejects.toThrow('--jq: nosuchfunction/1 is not defined');
    // Compiles, would run forever: checked without running it.
    await expect(load('repeat(1)')).resolves.toBeDefined();
  });
});

describe('a jq program that never ends', () => {
  it('is stopped at the time limit, with one line saying so', async () => {
    const r = await through('def f: f; f', ['{"a":1}\n'], false, { limits: { timeoutMs: 500 } });
    expect(r.out).toBe('');
    expect(r.failure?.message).toBe('--jq: the program ran longer than 0.5 s on one value, and was stopped');
    expect(r.failure?.exitCode).toBe(1);
  });

  it('is stopped by Ctrl-C (the signal) in the middle of its run: interrupted, exit 130', async () => {
    const stop = new AbortController();
    // Real time: jq runs in a worker thread, on the machine's time; the stop comes while it runs.
    setTimeout(() => stop.abort(new InterruptedError()), 300).unref();
    const r = await through('def f: f; f', ['{"a":1}\n'], false, { signal: stop.signal });
    expect(r.failure).toBeInstanceOf(InterruptedError);
    expect(r.failure?.exitCode).toBe(130);
  });

  // Seconds of work on an idle machine, several times that on a busy one: the time limit must not come first.
  const MEMORY_WORK_MS = 120_000;

  it(
    'that collects without end runs out of jq\'s memory: one line, never jq\'s "Aborted()"',
    async () => {
      const r = await through('[repeat(1)]', ['{"a":1}\n'], false, { limits: { timeoutMs: MEMORY_WORK_MS } });
      expect(r.failure?.message).toBe('--jq: the program ran out of memory (jq has 256 MB), and was stopped');
      expect(`${r.err}${r.failure?.toLine()}`).not.toMatch(/Aborted/);
    },
    MEMORY_WORK_MS,
  );

  it(
    'that prints without end is stopped at the memory cap',
    async () => {
      const r = await through('repeat("x" * 1000)', ['{"a":1}\n'], false, {
        limits: { timeoutMs: MEMORY_WORK_MS, memoryMb: 64 },
      });
      expect(r.failure?.message).toBe('--jq: the program took more than 64 MB of memory, and was stopped');
    },
    MEMORY_WORK_MS,
  );
});

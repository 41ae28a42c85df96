import { describe, expect, it } from 'vitest';
import { createTestIO } from './test-io.js';
import { createProgress } from '../src/items/progress.js';
import { addSecret, redact, redactingIO } from '../src/io/secrets.js';

describe('secrets', () => {
  it('the key is taken out of everything written through the IO: data, lines, stream writes', () => {
    const key = 'k3y-0123456789-abcdefghij-XYZ';
    addSecret(key);
    const raw = createTestIO();
    const io = redactingIO(raw);
    io.out(`{"echo":"${key}"}\n`);
    io.err(`trk: the service said: bad key ${key}`);
    io.stderr.write(`\r${key}${key}`);
    io.stdout.write(`${key}\n`);
    expect(raw.stdoutText()).toBe('{"echo":"***"}\n***\n');
    expect(raw.stderrText()).toBe('trk: the service said: bad key ***\n\r******');
    // The wrapped IO still tells what the streams are.
    expect(io.stdoutIsTTY).toBe(false);
    expect(io.columns).toBe(raw.columns);
  });

  it("a terminal's progress bar puts its status lines in place on the redacted IO, and takes them back", () => {
    const key = 'k3y-progress-0123456789-XYZ';
    addSecret(key);
    const raw = createTestIO({ tty: true, columns: 80 });
    const io = redactingIO(raw);
    const plain = io.err;
    const progress = createProgress(io, { label: 'register', mode: 'bar', ceilingPerSecond: 120, redrawMs: 60_000 });
    expect(io.err).not.toBe(plain);
    io.err(`a wait announced with ${key}`);
    progress.stop();
    expect(io.err).toBe(plain);
    expect(raw.stderrText()).toContain('a wait announced with ***');
    expect(raw.stderrText()).not.toContain(key);
  });

  it('values too short to tell from ordinary text are not redacted', () => {
    addSecret('abc');
    addSecret(undefined);
    expect(redact('abc abc')).toBe('abc abc');
  });

  it('properties made on demand (the process stdin) are not made by wrapping', () => {
    let made = 0;
    const raw = createTestIO();
    const lazy = Object.defineProperty({ ...raw }, 'stdin', {
      get: () => {
        made += 1;
        return raw.stdin;
      },
      enumerable: true,
    });
    const io = redactingIO(lazy);
    expect(made).toBe(0);
    expect(io.stdin).toBe(raw.stdin);
    expect(made).toBe(1);
  });
});

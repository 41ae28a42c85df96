// Which command an argument list names, as main reads it before anything is loaded: the command tree it declares
// (commandOf) and whether V8's optimising compilers are turned off for a long run (isWaitingRun).
import { describe, expect, it } from 'vitest';
import { commandOf, commandWords } from '../../src/commands/registry.js';
import { isWaitingRun } from '../../src/core/heap.js';

describe('commandWords', () => {
  it('skips options and the values of global options, and keeps at most two words', () => {
    expect(commandWords(['--profile', 'sync', 'webhook', 'listen', '--port', '0'])).toEqual(['webhook', 'listen']);
    expect(commandWords(['-o', 'json', 'report', '--db', 'm.db'])).toEqual(['report', 'm.db']);
    expect(commandWords(['--', 'info', 'RN1', 'RN2'])).toEqual(['info', 'RN1']);
    expect(commandWords(['--json', '-q'])).toEqual([]);
  });

  it('names the command commandOf declares', () => {
    expect(commandOf(['--timeout', '5s', 'list', '--tag', 'x'])).toBe('list');
    expect(commandOf(['help', 'list'])).toBe('all');
    expect(commandOf(['--', 'sync'])).toBe('sync');
    expect(commandOf(['--version'])).toBeNull();
  });
});

describe('isWaitingRun', () => {
  it('is true for sync, report and webhook listen, wherever global options sit', () => {
    for (const argv of [['sync'], ['--profile', 'shop', 'report', '--json'], ['webhook', '--sandbox', 'listen']])
      expect(isWaitingRun(commandWords(argv)), argv.join(' ')).toBe(true);
  });

  it('is false for other commands, the other webhook commands and a global value that names one', () => {
    for (const argv of [
      ['info', 'RN1'],
      ['webhook', 'verify'],
      ['--profile', 'sync', 'list'],
      ['find', '--', 'x'],
    ])
      expect(isWaitingRun(commandWords(argv)), argv.join(' ')).toBe(false);
  });
});

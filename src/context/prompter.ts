// Questions to a person at a terminal, on @inquirer/prompts (imported only when a question is asked). Prompts
// are drawn on stderr so that stdout keeps nothing but data, even when it is redirected to a file. Commands ask
// only after io.canPrompt(); Ctrl-C inside a prompt is an interrupt (exit 130), like anywhere else.

import type { Prompter } from './context.js';
import { InterruptedError } from '../core/errors.js';
import type { IO } from '../io/io.js';

export function createPrompter(io: IO, signal?: AbortSignal): Prompter {
  const context = () => ({ input: io.stdin, output: io.stderr, ...(signal ? { signal } : {}) });

  const ask = async <T>(prompt: () => Promise<T>): Promise<T> => {
    try {
      return await prompt();
    } catch (err) {
      const name = err instanceof Error ? err.name : '';
      if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError')
        throw new InterruptedError();
      throw err;
    }
  };

  return {
    async confirm(message, defaultValue = false) {
      const { confirm } = await import('@inquirer/prompts');
      return ask(() => confirm({ message, default: defaultValue }, context()));
    },
    async input(message, defaultValue) {
      const { input } = await import('@inquirer/prompts');
      return ask(() => input({ message, ...(defaultValue === undefined ? {} : { default: defaultValue }) }, context()));
    },
    async password(message) {
      const { password } = await import('@inquirer/prompts');
      return ask(() =>
        password({ message, mask: '*', validate: (v) => v.trim() !== '' || 'the key cannot be empty' }, context()),
      );
    },
    async select(message, choices, defaultValue) {
      const { select } = await import('@inquirer/prompts');
      const options = choices.map((c) => ({
        value: c.value,
        name: c.value,
        ...(c.description === undefined ? {} : { description: c.description }),
      }));
      return ask(() =>
        select(
          { message, choices: options, ...(defaultValue === undefined ? {} : { default: defaultValue }) },
          context(),
        ),
      );
    },
  };
}

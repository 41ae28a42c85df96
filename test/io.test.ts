import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { chalkFor, NO_COLOR } from '../src/io/io.js';

describe('colour without chalk', () => {
  it('NO_COLOR writes what chalk at level 0 writes, however styles are chained', () => {
    const chalk = new Chalk({ level: 0 });
    const uses: [string, (c: typeof chalk) => string][] = [
      ['one style', (c) => c.red('a')],
      ['chained', (c) => c.bold.green('b')],
      ['several arguments', (c) => c.dim('x', 'y')],
      ['a colour model', (c) => c.hex('#ff0000').bold('z')],
      ['visible', (c) => c.visible('hidden')],
    ];
    for (const [what, use] of uses) expect(use(NO_COLOR), what).toBe(use(chalk));
    expect(NO_COLOR.level).toBe(0);
  });

  it('is not taken for a promise, and chalk is loaded for a level above 0', async () => {
    expect(await chalkFor(0)).toBe(NO_COLOR);
    const red = (await chalkFor(1)).red('r');
    expect(red).toBe('\u001b[31mr\u001b[39m');
  });
});

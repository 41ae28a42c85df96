// The command tree as the completion scripts walk it (see spec.ts for how it is read from commander).

import type { CommandSpec, OptionSpec } from './spec.js';

export interface Node {
  path: string;
  spec: CommandSpec;
}

export const HEADER = 'generated from the command definitions by `npm run build`; do not edit';

/** Every command with its path ('' for the program, 'auth login' for a nested one). */
export function walk(spec: CommandSpec, path = ''): Node[] {
  return [{ path, spec }, ...spec.commands.flatMap((c) => walk(c, path ? `${path} ${c.name}` : c.name))];
}

/** Each spelling of each flag of `node` that takes a value. */
export function valueOptions(node: Node): { flag: string; opt: OptionSpec }[] {
  return node.spec.options.filter((o) => o.takesValue).flatMap((opt) => opt.flags.map((flag) => ({ flag, opt })));
}

// A rule's template file, read once when the rule is added (the mirror keeps its text for every host).

import { UsageError } from '../../core/errors.js';
import { nodeFs } from '../../core/node.js';

/** Templates are messages, not documents: a larger file is a mistake (a binary, the wrong file). */
const MAX_TEMPLATE_BYTES = 64 * 1024;

export function readTemplateFile(file: string): string {
  let text: string;
  try {
    const { readFileSync, statSync } = nodeFs();
    if (statSync(file).size > MAX_TEMPLATE_BYTES) {
      throw new UsageError(`the template ${file} is over 64 KiB`, 'a template is one message: name its file');
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read the template ${file}: ${code}`, 'name a readable file with --template');
  }
  return text;
}

// Files trk is told to write (--rejects FILE, webhook listen --save DIR, sandbox --state FILE) are never its own:
// a rejects file named ~/.config/trk/config.json would replace the profiles and their API keys, and one in the
// state folder a journal, the record of a finished run or the rate budget. Such a target is refused (exit 2)
// before anything is sent or written. Paths are compared as the system resolves them, symbolic links followed,
// so that a link or a relative path to the same file is refused too.

import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { configDir, stateDir } from './paths.js';
import { nodeFs } from '../core/node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { realpathSync } = nodeFs();

/**
 * Throws a UsageError when `target` (given with `flag`) is trk's profiles file or lies in its config or state
 * folder; `allowed` are files of those folders the flag is meant for (the sandbox's own state file).
 */
export function refuseOwnFile(
  target: string,
  env: NodeJS.ProcessEnv,
  flag: string,
  allowed: readonly string[] = [],
): void {
  const real = resolved(target);
  if (allowed.some((a) => resolved(a) === real)) return;
  const folders = [
    [configDir(env), 'config folder, which holds the API keys'],
    [stateDir(env), 'state folder (journals, runs, the rate budget)'],
  ] as const;
  for (const [dir, what] of folders) {
    const root = resolved(dir);
    if (real === root || real.startsWith(`${root}${path.sep}`)) {
      throw new UsageError(`${flag} ${target} is in trk's ${what}, ${dir}`, 'give a path outside it; nothing was done');
    }
  }
}

/** The path as the system resolves it: the longest part of it that exists with its links followed, then the rest. */
function resolved(file: string): string {
  const rest: string[] = [];
  let at = path.resolve(file);
  for (;;) {
    try {
      return path.join(realpathSync(at), ...rest);
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return path.join(at, ...rest);
      rest.unshift(path.basename(at));
      at = parent;
    }
  }
}

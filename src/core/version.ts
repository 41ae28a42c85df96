// trk's version, from package.json, read once a process: the command tree's --version and the user agent of
// requests both ask for it. (bin/trk.js reads it on its own for a bare --version, before anything is loaded.)

import { packageFile } from '../package-files.js';
import { nodeFs } from './node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { readFileSync } = nodeFs();

let version: string | undefined;

export function packageVersion(): string {
  if (version === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: string };
      version = pkg.version ?? '0.0.0';
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}

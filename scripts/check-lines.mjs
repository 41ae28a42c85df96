// Lines of the code at most 120 characters: the formatter keeps to that width but leaves a long string or comment
// as it is, so this check names each line it cannot fix.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const CODE = /\.(ts|js|mjs|cjs)$/;
// Written by the build, or recorded as they came.
const SKIPPED = [/^src\/help-pages\.ts$/, /(^|\/)fixtures\//, /^completions\//];

const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => CODE.test(f) && !SKIPPED.some((re) => re.test(f)));
const long = [];
for (const file of files) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if ([...line].length > MAX) long.push(`${file}:${i + 1}: ${[...line].length} characters`);
    });
}
for (const l of long) console.error(l);
if (long.length > 0) {
  console.error(`${long.length} line(s) over ${MAX} characters: break them (a long string as a concatenation)`);
  process.exit(1);
}

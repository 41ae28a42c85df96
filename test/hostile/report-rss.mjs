// Loaded with `node --import` before trk in hostile tests: at exit, the process's peak resident memory (KB) is
// written to the file named by HOSTILE_RSS_FILE, so a test can bound the memory a command took.
import { writeFileSync } from 'node:fs';

const file = process.env.HOSTILE_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));

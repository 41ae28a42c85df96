// Preloaded (NODE_OPTIONS=--require) by the benchmarks where GNU time is missing: writes the process's peak RSS
// in KiB to the file named by PEAK_RSS_FILE when it exits.
const { writeFileSync } = require('node:fs');
process.on('exit', () => writeFileSync(process.env.PEAK_RSS_FILE, String(process.resourceUsage().maxRSS)));

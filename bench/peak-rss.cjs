// Preloaded (NODE_OPTIONS=--require) by the benchmarks, so that none needs an external tool (GNU time): writes the
// process's peak RSS in KiB to the file named by PEAK_RSS_FILE when it exits, and its CPU time in seconds (user
// and system) to the one named by PEAK_CPU_FILE, where given.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const usage = process.resourceUsage();
  writeFileSync(process.env.PEAK_RSS_FILE, String(usage.maxRSS));
  if (process.env.PEAK_CPU_FILE)
    writeFileSync(process.env.PEAK_CPU_FILE, String((usage.userCPUTime + usage.systemCPUTime) / 1e6));
});

// A reporter that ends every run with its ten slowest test files (collecting and running each), so that a file
// growing slow is seen when it does, not when the suite has become too slow to land.

import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const timed = modules.map((m) => {
      const d = m.diagnostic();
      return { file: m.relativeModuleId, ms: d.collectDuration + d.duration };
    });
    if (timed.length < 2) return;
    timed.sort((a, b) => b.ms - a.ms);
    const lines = timed.slice(0, SHOWN).map((t) => `  ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.file}`);
    process.stdout.write(`\n The ${Math.min(SHOWN, timed.length)} slowest test files:\n${lines.join('\n')}\n`);
  }
}

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // The built CLI, for the tests that spawn it: made once per run, when a source changed (npm ci makes it).
    globalSetup: ['test/build-once.ts'],
    // Every run ends with its ten slowest files.
    reporters: ['default', './test/slowest-files.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: end-to-end files spawn the CLI and an emulator each, so keep parallelism modest.
    maxWorkers: 2,
  },
});

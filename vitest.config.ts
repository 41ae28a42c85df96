import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = fileURLToPath(new URL('./packages/', import.meta.url));

export default defineConfig({
  resolve: {
    // The workspace's packages (@trk/service, @trk/sandbox) as their sources, as trk's own modules are: a test runs
    // what it reads, without a build (their dist/ is what Node and the bundle load).
    alias: [
      { find: /^@trk\/([\w-]+)$/, replacement: `${packages}$1/src/index.ts` },
      { find: /^@trk\/([\w-]+)\/(.+)\.js$/, replacement: `${packages}$1/src/$2.ts` },
    ],
  },
  test: {
    // trk's tests and those of its packages (packages/sandbox/test): `npm test` at the root runs them all.
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
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

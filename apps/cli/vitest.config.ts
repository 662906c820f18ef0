import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The tests run the server's and the command line's bundles, built here when their sources are newer.
  test: { include: ['test/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false, globalSetup: ['test/global-build.ts'] },
});

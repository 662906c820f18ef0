import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The tests run the server bundle, built here when its source is newer (as the server's own suite does).
  test: { include: ['test/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false, globalSetup: ['../server/test/global-build.ts'] },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-build.ts'],
    // Each file gets its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});

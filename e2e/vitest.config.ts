import { defineConfig } from 'vitest/config';

// Browser tests: a real Haul on a temporary SQLite file, driven in Debian's Chromium. One file at a time (2 cores):
// two at a time took 334-346 s against 464 s, but one run in four then timed out waiting for a dialog's field.
export default defineConfig({
  test: {
    root: 'e2e',
    include: ['**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    pool: 'forks',
    // The UI follows the local database at most once a second; give it time.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});

import { defineConfig } from 'vitest/config';

// Browser tests: a real Haul on a temporary SQLite file, driven in Debian's Chromium. Two files at a time: a file
// mostly waits (the UI's throttles, polls, media), ~0.5 of one core over its run, so two take 334-346 s where one at
// a time took 464 s; each file has its own server, database, port and browser.
export default defineConfig({
  test: {
    root: 'e2e',
    include: ['**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    pool: 'forks',
    // Files share a worker's loaded modules instead of importing the server again for each (~6 s a file on a busy
    // machine: 460-500 s of a run went to imports, 24 s without isolation). Safe as in apps/server: no file mocks a
    // module or changes the environment, and each starts its own server, database, port and browser.
    isolate: false,
    // The UI follows the local database at most once a second; give it time.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});

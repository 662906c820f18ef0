import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-build.ts'],
    setupFiles: ['test/scratch-setup.ts'],
    // Each file gets its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    // Files share a worker's loaded modules instead of loading the server again for each (~1.3 s a file: 128 s of a
    // SQLite pass went to imports, 16 s without isolation). Safe because no test mocks a module or changes the
    // environment, and every file builds its own server, database and folders.
    isolate: false,
  },
});

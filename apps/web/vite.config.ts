import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Served by the Haul server under /drive; `npm run dev` proxies the API to a server on :8080.
export default defineConfig({
  base: '/drive/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      // The client package's modules do nothing when imported, so one that is only re-exported by its index (the
      // BLAKE3 hashing, with hash-wasm) goes where it is used (the uploads) instead of into the first download.
      treeshake: { moduleSideEffects: (id: string) => !/\/packages\/client\/src\//.test(id) },
      // The libraries the entry imports statically in one file: with the pages split off, the first screen would
      // otherwise arrive as ~45 small chunks, each with its own request and headers. Only libraries: the entry
      // awaits the share pages' router, and a chunk holding both would wait on itself.
      output: { codeSplitting: { groups: [{ name: 'first-screen-libs', tags: ['$initial'], test: /node_modules/ }] } },
    },
  },
  server: {
    proxy: {
      '/drive/v1': 'http://127.0.0.1:8080',
      '/v1': 'http://127.0.0.1:8080',
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});

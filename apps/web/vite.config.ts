import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Served by the Haul server under /drive; `npm run dev` proxies the API to a server on :8080.
export default defineConfig({
  base: '/drive/',
  plugins: [react()],
  build: { outDir: 'dist', target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 400 },
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

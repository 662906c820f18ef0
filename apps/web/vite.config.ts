import { readFileSync, readdirSync } from 'node:fs';
import { build } from 'esbuild';
import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/** The installed app's icon sizes: 192 and 512 for the manifest (installability wants ≥144), 180 for iOS's home screen. */
const ICON_SIZES = [180, 192, 512];

/**
 * The app icons, drawn at build time by the browser extension's icon script (the same accent square with an arrow into
 * a tray), so the extension and the installed app look alike and the repository holds no image binary.
 */
function appIcons(): Plugin {
  return {
    name: 'haul-app-icons',
    apply: 'build',
    async generateBundle() {
      const script = new URL('../extension/scripts/icons.mjs', import.meta.url).href;
      const { iconPng } = (await import(script)) as { iconPng: (size: number) => Buffer };
      for (const size of ICON_SIZES) this.emitFile({ type: 'asset', fileName: `icons/icon-${size}.png`, source: iconPng(size) });
    },
  };
}

const LOCALES = new URL('./src/locales/', import.meta.url);

/** The i18n keys the first paint shows (read as a file: the config loads none of the app's modules). */
const firstPaintKeys = () => JSON.parse(readFileSync(new URL('./src/features/first-paint/paint-words.json', import.meta.url), 'utf8')) as string[];

/** locale → key → text, for the keys the first paint shows. */
function words(): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  const keys = firstPaintKeys();
  for (const file of readdirSync(LOCALES).filter((f) => f.endsWith('.json'))) {
    const all = JSON.parse(readFileSync(new URL(file, LOCALES), 'utf8')) as Record<string, unknown>;
    const pick = (key: string) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], all);
    out[file.replace(/\.json$/, '')] = Object.fromEntries(keys.map((k) => [k, String(pick(k) ?? '')]));
  }
  return out;
}

/**
 * Inlines the first paint (src/features/first-paint/boot.ts) into index.html: bundled with esbuild into one small
 * script, with the few words it shows taken from every locale, so it runs before any of the app's scripts load. In a
 * build it also takes the app's entry script out of the page and starts it itself, once the first page is drawn (the
 * app's scripts are fetched meanwhile: their preload links stay), so their evaluation does not hold the drawing back.
 */
function firstPaint(): Plugin {
  return {
    name: 'haul-first-paint',
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        const entryTag = ctx.bundle ? /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html) : null;
        if (ctx.bundle && !entryTag) throw new Error('first paint: the entry script was not found in index.html');
        const out = await build({
          entryPoints: [new URL('./src/features/first-paint/boot.ts', import.meta.url).pathname],
          bundle: true,
          write: false,
          format: 'iife',
          minify: true,
          target: 'es2022',
          define: { __FIRST_PAINT_WORDS__: JSON.stringify(words()), __HAUL_ENTRY__: JSON.stringify(entryTag?.[1] ?? null) },
        });
        return {
          // The app's modules are fetched at once but only compiled when the entry runs: Chromium compiles a module
          // it preloads as such on the page's main thread, which would hold the drawing back.
          html: entryTag ? html.replace(entryTag[0], '').replaceAll('<link rel="modulepreload" crossorigin', '<link rel="preload" as="script" crossorigin') : html,
          tags: [{ tag: 'script', children: out.outputFiles[0]!.text, injectTo: 'body' }],
        };
      },
    },
  };
}

// Served by the Haul server under /drive; `npm run dev` proxies the API to a server on :8080.
export default defineConfig({
  base: '/drive/',
  plugins: [
    react(),
    appIcons(),
    // index.html draws the open folder's first page before the app's scripts load (src/features/first-paint).
    firstPaint(),
    // The manifest and the service worker (src/features/pwa/sw.ts, workbox's precaching); docs/decisions/installed-app.md.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/features/pwa',
      filename: 'sw.ts',
      // Registered by the app itself (features/pwa/register-service-worker.ts), on the drive only, never reloading a page.
      injectRegister: false,
      scope: '/drive/',
      injectManifest: {
        // The app shell: the page, its scripts and styles, the icons. Not the players' and the PDF reader's libraries
        // nor the phone-number metadata: they are large and of no use without a network (the HTTP cache keeps them).
        globPatterns: ['index.html', 'assets/*.{js,mjs,css}', 'icons/*.png'],
        globIgnores: ['assets/hls-*', 'assets/pdf-*', 'assets/pdf.worker*', 'assets/phone-numbers-*'],
      },
      includeManifestIcons: false,
      manifest: {
        id: '/drive/',
        name: 'Haul',
        short_name: 'Haul',
        description: 'Your cloud drive that fetches links, magnet links and torrents for you.',
        start_url: '/drive/',
        scope: '/drive/',
        display: 'standalone',
        // The header's colour (--bg in light mode); index.html tells browsers the dark one.
        theme_color: '#ffffff',
        background_color: '#ffffff',
        icons: [
          { src: '/drive/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/drive/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        ],
        share_target: {
          action: '/drive/share-target',
          method: 'POST',
          enctype: 'multipart/form-data',
          params: {
            title: 'title',
            text: 'text',
            url: 'url',
            files: [{ name: 'files', accept: ['.torrent', 'application/x-bittorrent'] }],
          },
        },
        protocol_handlers: [{ protocol: 'magnet', url: '/drive/all?action=create_task&url=%s' }],
        file_handlers: [{ action: '/drive/all', accept: { 'application/x-bittorrent': ['.torrent'] } }],
      },
    }),
  ],
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      // The client package's modules do nothing when imported, so one that is only re-exported by its index (the
      // BLAKE3 hashing, with hash-wasm) goes where it is used (the uploads) instead of into the first download.
      treeshake: { moduleSideEffects: (id: string) => !/\/packages\/client\/src\//.test(id) },
      // What the entry imports statically in two files, the libraries and the app's own modules: with the pages split
      // off, the first screen would otherwise arrive as ~60 small chunks, each a request of its own, and over HTTP/1.1
      // (six connections) they queue with the folder's first page that index.html asks for. The entry itself stays
      // apart: it awaits the share pages' router, and a chunk holding both would wait on itself.
      output: {
        codeSplitting: {
          groups: [
            { name: 'first-screen-libs', tags: ['$initial'], test: /node_modules/ },
            { name: 'first-screen', tags: ['$initial'], test: /\/(apps\/web\/src\/(?!main\.tsx$)|packages\/)/ },
          ],
        },
      },
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

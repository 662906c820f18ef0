/**
 * The browser extension under test: built from apps/extension, loaded unpacked into Debian's Chromium (a persistent
 * profile, headless), and every request the server sees from the extension's origin recorded, to be checked against
 * the contract's route table.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import type { Haul } from '../apps/server/src/app.js';
import { pathPattern } from '../packages/shared/src/contract/fill-path.js';
import { ROUTES } from '../packages/client/src/route-table.js';
import { HEADLESS_CHROMIUM_ARGS } from './chromium-args.js';
import { CHROMIUM } from './harness.js';

export const EXTENSION_DIR = resolve(import.meta.dirname, '../apps/extension');

/** Held while one test file builds: the browser tests run two files at a time, and two builds into one folder clash. */
const BUILD_LOCK = join(EXTENSION_DIR, '.e2e-build-lock');

function withBuildLock<T>(work: () => T): T {
  const end = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock left by a killed run: a build takes about a second, so one this old is nobody's.
      const held = statSync(BUILD_LOCK, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 60_000) rmSync(BUILD_LOCK, { recursive: true, force: true });
      if (Date.now() > end) throw new Error(`The extension's build lock ${BUILD_LOCK} stayed taken.`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    return work();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/** Builds the unpacked extension (esbuild, under a second), one test file at a time, and answers its folder. */
export function buildExtension(): string {
  const r = withBuildLock(() => spawnSync(process.execPath, [join(EXTENSION_DIR, 'scripts/build.mjs')], { cwd: EXTENSION_DIR, encoding: 'utf8' }));
  if (r.status !== 0) throw new Error(`The extension did not build:\n${r.stdout}\n${r.stderr}`);
  return join(EXTENSION_DIR, 'dist');
}

/**
 * A copy of the built extension whose optional permissions (site access, the downloads API) are granted up front, as
 * a person grants them at the browser's prompt when turning a switch of catching on: a headless browser shows that
 * prompt but nothing can answer it. The extension's own request then finds them granted and goes on without asking.
 */
export function withOptionalPermissionsGranted(dist: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'haul-e2e-extension-granted-'));
  cpSync(dist, copy, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8'));
  manifest.permissions = [...manifest.permissions, ...manifest.optional_permissions];
  manifest.host_permissions = manifest.optional_host_permissions;
  delete manifest.optional_permissions;
  delete manifest.optional_host_permissions;
  writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest));
  return copy;
}

export interface LoadedExtension {
  context: BrowserContext;
  /** The extension's service worker. */
  worker: Worker;
  /** Its id: the host of chrome-extension://ID/ pages. */
  id: string;
  close: () => Promise<void>;
}

/** Chromium with only this extension, in a fresh profile (an extension needs a persistent context). */
export async function launchWithExtension(dir: string): Promise<LoadedExtension> {
  const profile = mkdtempSync(join(tmpdir(), 'haul-e2e-extension-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    locale: 'en-US',
    args: [
      ...HEADLESS_CHROMIUM_ARGS,
      `--disable-extensions-except=${dir}`,
      `--load-extension=${dir}`,
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  return {
    context,
    worker,
    id: new URL(worker.url()).host,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface SeenCall {
  method: string;
  path: string;
}

const fromExtensionOrigin = (req: IncomingMessage) => !!req.headers.origin?.startsWith('chrome-extension://');

/**
 * Records what the server receives from the extension (a listener beside Fastify's on the same HTTP server): by
 * default what comes from an extension origin. An extension granted site access sends a GET without Origin, so a
 * test that grants it passes its own way of telling (its own calls marked, say).
 */
export function recordExtensionCalls(haul: Haul, isExtension: (req: IncomingMessage) => boolean = fromExtensionOrigin): SeenCall[] {
  const seen: SeenCall[] = [];
  haul.app.server.on('request', (req: IncomingMessage) => {
    if (isExtension(req)) seen.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]! });
  });
  return seen;
}

const CONTRACT_ROUTES = Object.entries(ROUTES).map(([name, r]) => ({ name, method: r.method as string, pattern: pathPattern(r.path) }));

/** The contract route a call is, or null; a preflight (OPTIONS) counts as the route it asks about. */
export function contractRouteOf(call: SeenCall): string | null {
  const hit = CONTRACT_ROUTES.find((r) => (call.method === 'OPTIONS' || r.method === call.method) && r.pattern.test(call.path));
  return hit?.name ?? null;
}

/**
 * The switches a headless Chromium of the browser tests and benchmarks starts with: no sandbox (it runs as root in a
 * container), no GPU, and no first-run pages, background fetches, component updates or sync, which would add traffic
 * and work of the browser's own to what is measured or checked.
 */
export const HEADLESS_CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

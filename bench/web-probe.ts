/**
 * What bench/web.bench.ts puts into the pages it measures: the probe that counts a first sync's work on the page's
 * main thread and stamps its first row, the static page the cold first row is measured against, and the count of the
 * scripts a page downloads.
 */
import type { Browser, BrowserContext, CDPSession } from 'playwright-core';

/** What the first visit's page counts on its main thread while it syncs. */
export interface SyncProbe {
  calls: number;
  headersMs: number;
  bodyMs: number;
  parseMs: number;
  txs: number;
  puts: number;
  txMs: number;
  longTasks: number[];
  longTaskStarts: number[];
  /** The first listing calls: parent_id, sent and answered (ms after navigation). */
  first: [string, number, number][];
  /** When the first `[data-item]` entered the page, and the animation frame after it (ms after navigation; 0: not yet). */
  rowAt: number;
  rowFrameAt: number;
  /** The same for index.html's first paint of the folder (`#first-paint`, drawn before the app runs; 0: none). */
  paintAt: number;
  paintFrameAt: number;
}

/** Runs in the page before its scripts: wraps fetch, JSON.parse and IndexedDB writes with counters. */
export function syncProbe() {
  const p: SyncProbe = { calls: 0, headersMs: 0, bodyMs: 0, parseMs: 0, txs: 0, puts: 0, txMs: 0, longTasks: [], longTaskStarts: [], first: [], rowAt: 0, rowFrameAt: 0, paintAt: 0, paintFrameAt: 0 };
  // Stamped in the page: the time Playwright's wait adds (polling, a round trip behind busy tasks) is not in these.
  new MutationObserver((_, obs) => {
    if (!p.paintAt && document.querySelector('#first-paint .vrow')) {
      p.paintAt = performance.now();
      requestAnimationFrame(() => (p.paintFrameAt = performance.now()));
    }
    if (!document.querySelector('[data-item]')) return;
    obs.disconnect();
    p.rowAt = performance.now();
    requestAnimationFrame(() => (p.rowFrameAt = performance.now()));
  }).observe(document, { childList: true, subtree: true });
  (window as unknown as { __syncProbe: SyncProbe }).__syncProbe = p;
  // Room for every listing call's timing entry (their bytes on the wire and decoded), not just the first 250.
  performance.setResourceTimingBufferSize(10_000);
  new PerformanceObserver((l) => l.getEntries().forEach((e) => p.longTasks.push(e.duration) && p.longTaskStarts.push(e.startTime))).observe({
    type: 'longtask',
    buffered: true,
  });
  const fetch0 = window.fetch;
  window.fetch = async function (input: RequestInfo | URL, init?: RequestInit) {
    if (!String(input instanceof Request ? input.url : input).includes('/drive/v1/files?')) return fetch0.call(this, input, init);
    p.calls++;
    const t = performance.now();
    const res = await fetch0.call(this, input, init);
    p.headersMs += performance.now() - t;
    const parent = new URL(String(input instanceof Request ? input.url : input), location.href).searchParams.get('parent_id') ?? '';
    if (p.first.length < 4) p.first.push([parent, t, performance.now()]);
    const text = res.text.bind(res);
    res.text = async () => {
      const t1 = performance.now();
      const body = await text();
      p.bodyMs += performance.now() - t1;
      return body;
    };
    return res;
  };
  const parse = JSON.parse;
  JSON.parse = function (text: string, reviver?: (k: string, v: unknown) => unknown) {
    if (typeof text !== 'string' || text.length < 20_000) return parse(text, reviver);
    const t = performance.now();
    try {
      return parse(text, reviver);
    } finally {
      p.parseMs += performance.now() - t;
    }
  };
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    const tx = transaction.apply(this, args);
    const names = typeof args[0] === 'string' ? [args[0]] : [...args[0]];
    if (args[1] === 'readwrite' && names.includes('chunks')) {
      p.txs++;
      const t = performance.now();
      const done = () => (p.txMs += performance.now() - t);
      tx.addEventListener('complete', done);
      tx.addEventListener('abort', done);
    }
    return tx;
  } as IDBDatabase['transaction'];
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    if (this.name === 'chunks') p.puts++;
    return put.apply(this, args);
  };
}

/**
 * The cold first row's reference: a page with nothing but an inline script that fetches the folder's first page (the
 * very request the app's index.html makes, token and all), adds its first 100 rows with plain DOM and stamps the
 * frame after they entered it, as the app's probe stamps its own (`rowFrameAt`, ms after navigation).
 */
export function staticFirstRowPage(folderId: string, token: string): string {
  return `<!doctype html><meta charset="utf-8"><title>first row</title><div id="rows"></div><script>
const q = new URLSearchParams({ parent_id: ${JSON.stringify(folderId)}, limit: '500', filters: JSON.stringify({ trashed: { eq: false }, phase: { eq: 'PHASE_TYPE_COMPLETE' } }), with_audit: 'true' });
fetch('/drive/v1/files?' + q, { headers: { Authorization: 'Bearer ' + ${JSON.stringify(token)} } }).then((r) => r.json()).then(({ files }) => {
  const list = document.getElementById('rows');
  for (const f of files.slice(0, 100)) {
    const row = document.createElement('div');
    row.dataset.item = f.id;
    row.append(f.name, ' ', String(f.size), ' ', f.modified_time);
    list.append(row);
  }
  requestAnimationFrame(() => (window.rowFrameAt = performance.now()));
});
</script>`;
}

/** The scripts a page downloads (url, compressed bytes), by request, as the DevTools protocol reports them. */
export function countScripts(cdp: CDPSession) {
  const scripts = new Map<string, { url: string; bytes: number }>();
  void cdp.send('Network.enable');
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, { url: e.response.url, bytes: 0 });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const s = scripts.get(e.requestId);
    if (s) s.bytes = e.encodedDataLength;
  });
  return scripts;
}

/**
 * A browser profile signed in with `session` (the web app's stored session, set before the page's scripts run) and
 * the sync probe in every page. (The probe goes in as source text: tsx may wrap inner functions in a `__name` helper
 * the page lacks.)
 */
export async function probedContext(browser: Browser, base: string, session: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  await context.addInitScript((s) => {
    if (!localStorage.getItem('haul.session')) localStorage.setItem('haul.session', s);
  }, session);
  await context.addInitScript({ content: `var __name = (f) => f; (${syncProbe.toString()})();` });
  return context;
}

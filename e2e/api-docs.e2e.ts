/**
 * The API reference at /api/docs renders in Chromium under the server's own Content-Security-Policy, from files of
 * our origin only, and a reader can try a call with a token from the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, startE2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('the API reference', () => {
  it('lists every area and operation, and shows a route with its errors', async () => {
    const { page } = await e2e.newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => /^https?:/.test(r.url()) && !r.url().startsWith(`${e2e.base}/`) && elsewhere.push(r.url()));
    await page.goto(`${e2e.base}/api/docs`);

    // The areas come folded (every operation at once is more than Swagger UI renders); each opens on a click.
    await page.locator('.opblock-tag').first().waitFor();
    for (const tag of ['Accounts', 'Files', 'Uploads', 'Tasks', 'Media', 'Shares', 'Administration']) {
      await expect.poll(() => page.locator(`.opblock-tag[data-tag="${tag}"]`).count(), tag).toBe(1);
    }
    // One operation a contract entry: opened area by area, every route of the contract is on the page.
    const doc = (await (await fetch(`${e2e.base}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const byTag = new Map<string, number>();
    for (const ops of Object.values(doc.paths)) for (const op of Object.values(ops)) byTag.set(op.tags![0]!, (byTag.get(op.tags![0]!) ?? 0) + 1);
    expect(await page.locator('.opblock-tag').count()).toBe(byTag.size);
    for (const [tag, count] of byTag) {
      const header = page.locator(`.opblock-tag[data-tag="${tag}"]`);
      await header.click();
      const section = page.locator('.opblock-tag-section').filter({ has: header });
      await expect.poll(() => section.locator('.opblock').count(), tag).toBe(count);
      if (tag !== 'Files') await header.click();
    }

    // Open "List files": its summary, its parameters and a documented error.
    const list = page.locator('#operations-Files-listFiles');
    await list.locator('.opblock-summary').click();
    await expect.poll(() => list.locator('.opblock-body').innerText()).toContain('filters');
    const body = await list.locator('.opblock-body').innerText();
    expect(body).toContain('file_not_found');
    expect(body).toContain('unauthenticated');

    // The bearer scheme is offered for the token.
    await expect.poll(() => page.locator('button.authorize').count()).toBe(1);
    expect(problems, 'console errors (a CSP refusal shows here)').toEqual([]);
    expect(elsewhere, 'requests to other origins').toEqual([]);
  });
});

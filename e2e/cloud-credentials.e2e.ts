/** A cloud download with a sign-in from the browser: the folded section, a chosen name, and the secrets shown nowhere. */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addNew, linkOrigin, pageApi, signUpInBrowser, startE2E, type E2E } from './harness.js';

const PASSWORD = 'Orig1n-pa55word';
const COOKIE = 'sid=e2e-C00KIE-77';
const content = randomBytes(300_000);
let e2e: E2E;
let origin: Awaited<ReturnType<typeof linkOrigin>>;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  e2e = await startE2E();
  // Answers only to Basic alice:… with the session cookie.
  origin = await linkOrigin((req, res) => {
    seen.push(req.headers);
    const ok = req.headers.authorization === `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}` && req.headers.cookie === COOKIE;
    if (!ok) return res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end();
    res.writeHead(200, { 'content-length': content.length, 'content-type': 'application/octet-stream' }).end(content);
  });
});
afterAll(async () => {
  await origin?.close();
  await e2e?.close();
});

describe('cloud download with sign-in and headers', () => {
  it('signs in to the origin, saves under the chosen name and never shows the secrets back', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await addNew(page, 'Cloud download');
    const links = page.getByLabel('Links');
    // Two links: no single name to choose.
    await links.fill(`${origin.base}/a.bin\n${origin.base}/b.bin`);
    await expect.poll(() => page.getByLabel('Save as').count()).toBe(0);
    await links.fill(`${origin.base}/private/archive.bin`);
    await page.getByLabel('Save as').fill('Quarterly.bin');
    await page.getByText('Sign-in and headers').click();
    await page.getByLabel('User name').fill('alice');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Cookie').fill(COOKIE);
    await page.getByRole('button', { name: 'Download', exact: true }).click();

    let tasks: { phase: string; file_id: string; name: string }[] = [];
    await expect
      .poll(async () => {
        tasks = (await pageApi(page, 'GET', '/drive/v1/tasks?type=offline')).tasks;
        return tasks[0]?.phase;
      }, { timeout: 20_000 })
      .toBe('PHASE_TYPE_COMPLETE');
    expect(tasks[0]!.name).toBe('Quarterly.bin');
    expect(seen.some((h) => h.cookie === COOKIE)).toBe(true);
    const listing = JSON.stringify(tasks);
    expect(listing).not.toContain(PASSWORD);
    expect(listing).not.toContain('C00KIE');
    const file = await pageApi(page, 'GET', `/drive/v1/files/${tasks[0]!.file_id}`);
    expect(file).toMatchObject({ name: 'Quarterly.bin', size: String(content.length) });
    // Nor in the page (the transfer list, the new file's row).
    const html = await page.content();
    expect(html).not.toContain(PASSWORD);
    expect(html).not.toContain('C00KIE');
  });
});

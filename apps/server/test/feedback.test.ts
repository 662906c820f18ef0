/**
 * Feedback: a person sends a message with the page and a screenshot (checked by its bytes, kept as a blob, served
 * back only to its author and operators, as a picture); sees only their own; the operator lists, filters, answers
 * (the person reads it at once and gets a mail), closes and reopens, each in the audit log; ten an hour; erasing
 * the account erases its feedback and lets its screenshots go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT, FEEDBACK_SCREENSHOT_MAX_BYTES, fillPath, type TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { markAccountDeleted } from '../src/accounts/account-deletion.service.js';
import { eraseAccount } from '../src/accounts/account-erasure.js';
import { collectGarbageBlobs } from '../src/storage/blobs.repository.js';
import { newestOutbox } from '../src/mail/outbox.js';
import { startTestHaul, storedBlobs, type TestHaul } from './helper.js';

const PW = 'correct horse';
/** A 16×16 red PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGO4YGBAEmIY1TCqYfhqAAA+XjAQexaBIwAAAABJRU5ErkJggg==', 'base64');
const FEEDBACK_ROUTES = Object.entries(CONTRACT).filter(([, d]) => d.path.includes('/feedback'));

describe('feedback', () => {
  let h: TestHaul;
  let admin: TokenResponse;
  let ada: TokenResponse;
  let bob: TokenResponse;
  const send = (who: TokenResponse, body: Record<string, unknown>) => h.api('POST', '/v1/feedback', who.access_token, body);
  const rows = () => h.ctx.db.selectFrom('feedback').selectAll().execute();
  beforeAll(async () => {
    h = await startTestHaul();
    await createUser(h.ctx, { email: 'operator@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'operator@example.com', password: PW })).body;
    ada = await h.signUp('ada@example.com', PW);
    bob = await h.signUp('bob@example.com', PW);
  });
  afterAll(() => h.destroy());

  it('keeps a message with and without a screenshot, and serves the screenshot to its author as a picture only', async () => {
    const plain = await send(ada, { message: '  The player stops at 10 minutes.  ', where: '/all/abc\n' });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ message: 'The player stops at 10 minutes.', where: '/all/abc', has_screenshot: false, status: 'open', answer: '' });
    const shot = await send(ada, { message: 'Look at this', where: '/recent', screenshot: PNG.toString('base64') });
    expect(shot.status).toBe(200);
    expect(shot.body.has_screenshot).toBe(true);

    const list = await h.api('GET', '/v1/feedback', ada.access_token);
    expect(list.body.feedback.map((f: { message: string }) => f.message)).toEqual(['Look at this', 'The player stops at 10 minutes.']);
    const img = await h.api('GET', `/v1/feedback/${shot.body.id}/screenshot`, ada.access_token);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['content-disposition']).toBe('inline');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(img.raw.equals(PNG)).toBe(true);
    // The blob is counted like a file's bytes, so the purge keeps it.
    const row = (await rows()).find((r) => r.id === shot.body.id)!;
    const blob = await h.ctx.db.selectFrom('blobs').selectAll().where('hash', '=', row.screenshot_hash).executeTakeFirstOrThrow();
    expect(Number(blob.ref_count)).toBe(1);
    expect((await h.api('GET', `/v1/feedback/${plain.body.id}/screenshot`, ada.access_token)).status).toBe(404);
  });

  it('refuses a screenshot that is not a picture or is too large, an empty message, and stores nothing', async () => {
    const before = { rows: (await rows()).length, blobs: (await storedBlobs(h)).length };
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    for (const screenshot of [html.toString('base64'), 'not base64!', Buffer.concat([PNG, Buffer.alloc(FEEDBACK_SCREENSHOT_MAX_BYTES + 1 - PNG.length)]).toString('base64')]) {
      const r = await send(bob, { message: 'see the picture', screenshot });
      expect([r.status, r.body.error]).toEqual([400, 'invalid_argument']);
      expect(r.body.error_description).toMatch(/screenshot/i);
    }
    expect((await send(bob, { message: '   ' })).status).toBe(400);
    expect((await send(bob, { message: 'x'.repeat(5001) })).status).toBe(400);
    expect({ rows: (await rows()).length, blobs: (await storedBlobs(h)).length }).toEqual(before);
  });

  it("shows a person only their own, and another's message answers as missing", async () => {
    const mine = await send(bob, { message: "Bob's own", screenshot: PNG.toString('base64') });
    const bobs = await h.api('GET', '/v1/feedback', bob.access_token);
    expect(bobs.body.feedback.map((f: { message: string }) => f.message)).toEqual(["Bob's own"]);
    const adas = await h.api('GET', '/v1/feedback', ada.access_token);
    expect(adas.body.feedback.some((f: { id: string }) => f.id === mine.body.id)).toBe(false);
    const theirs = await h.api('GET', `/v1/feedback/${mine.body.id}/screenshot`, ada.access_token);
    const nobody = await h.api('GET', '/v1/feedback/nothing-here/screenshot', ada.access_token);
    expect([theirs.status, theirs.body.error]).toEqual([404, 'not_found']);
    expect(theirs.body.error_description).toBe(nobody.body.error_description);
  });

  it('lets the operator list, filter, answer (shown at once, mailed, audited), close and reopen', async () => {
    const pages: { message: string; user_email: string }[] = [];
    let token = '';
    do {
      const page = await h.api('GET', `/admin/v1/feedback?limit=2${token ? `&page_token=${token}` : ''}`, admin.access_token);
      expect(page.status).toBe(200);
      pages.push(...page.body.feedback);
      token = page.body.next_page_token;
    } while (token);
    expect(pages.map((f) => f.message)).toEqual(["Bob's own", 'Look at this', 'The player stops at 10 minutes.']);
    const target = (await h.api('GET', '/admin/v1/feedback', admin.access_token)).body.feedback.find((f: { message: string }) => f.message === 'Look at this');
    expect(target).toMatchObject({ user_email: 'ada@example.com', where: '/recent', screenshot_type: 'image/png', screenshot_size: String(PNG.length), status: 'open' });
    const img = await h.api('GET', `/admin/v1/feedback/${target.id}/screenshot`, admin.access_token);
    expect([img.status, img.headers['content-type'], img.raw.equals(PNG)]).toEqual([200, 'image/png', true]);

    const answered = await h.api('PATCH', `/admin/v1/feedback/${target.id}`, admin.access_token, { answer: 'Fixed in the next version, thanks.' });
    expect(answered.body).toMatchObject({ status: 'answered', answer: 'Fixed in the next version, thanks.' });
    const seen = (await h.api('GET', '/v1/feedback', ada.access_token)).body.feedback.find((f: { id: string }) => f.id === target.id);
    expect(seen).toMatchObject({ status: 'answered', answer: 'Fixed in the next version, thanks.' });
    expect(seen.answered_time).not.toBe('');
    const mail = (await newestOutbox(h.ctx.db, 5)).filter((m) => m.to === 'ada@example.com');
    expect(mail.at(-1)?.text).toContain('Fixed in the next version, thanks.');
    expect(mail.at(-1)?.text).toContain('Look at this');

    const open = await h.api('GET', '/admin/v1/feedback?status=open', admin.access_token);
    expect(open.body.feedback.map((f: { id: string }) => f.id)).not.toContain(target.id);
    expect((await h.api('GET', '/admin/v1/feedback?status=answered', admin.access_token)).body.feedback.map((f: { id: string }) => f.id)).toEqual([target.id]);

    const closed = await h.api('PATCH', `/admin/v1/feedback/${target.id}`, admin.access_token, { status: 'closed' });
    expect(closed.body).toMatchObject({ status: 'closed', answer: 'Fixed in the next version, thanks.' });
    expect((await h.api('GET', `/admin/v1/feedback/${target.id}`, admin.access_token)).body.status).toBe('closed');
    expect((await h.api('PATCH', `/admin/v1/feedback/${target.id}`, admin.access_token, { status: 'open' })).body.status).toBe('open');
    expect((await h.api('PATCH', `/admin/v1/feedback/${target.id}`, admin.access_token, {})).status).toBe(400);
    expect((await h.api('PATCH', '/admin/v1/feedback/nothing-here', admin.access_token, { status: 'closed' })).body.error).toBe('not_found');

    const audit = await h.api('GET', `/admin/v1/audit?user_id=${ada.sub}`, admin.access_token);
    const actions = audit.body.events.filter((e: { action: string }) => e.action.startsWith('admin.feedback.'));
    expect(actions.map((e: { action: string }) => e.action)).toEqual(['admin.feedback.reopened', 'admin.feedback.closed', 'admin.feedback.answered']);
    expect(actions[0]).toMatchObject({ actor_email: 'operator@example.com', details: { feedback_id: target.id } });
  });

  it('refuses every feedback admin route to a person and to no token', async () => {
    const adminRoutes = FEEDBACK_ROUTES.filter(([, d]) => d.auth === 'admin');
    // Listing, reading, changing, the screenshot, and putting a message in the report queue.
    expect(adminRoutes.length).toBe(5);
    const before = await rows();
    for (const [name, d] of adminRoutes) {
      const url = fillPath(d.path, { id: before[0]!.id });
      const body = d.method === 'PATCH' ? { status: 'closed' } : d.method === 'POST' ? { share_id: 'someshare', reason: 'other' } : undefined;
      const asPerson = await h.api(d.method, url, ada.access_token, body);
      expect([asPerson.status, asPerson.body.error], name).toEqual([403, 'permission_denied']);
      const anonymous = await h.api(d.method, url, undefined, body);
      expect([anonymous.status, anonymous.body.error], name).toEqual([401, 'unauthenticated']);
    }
    expect((await h.api('POST', '/v1/feedback', undefined, { message: 'hi' })).status).toBe(401);
    expect(await rows()).toEqual(before);
  });

  it('takes ten messages an hour from one account', async () => {
    const eve = await h.signUp('eve@example.com', PW);
    for (let i = 0; i < 10; i++) expect((await send(eve, { message: `note ${i}` })).status).toBe(200);
    const eleventh = await send(eve, { message: 'one more' });
    expect([eleventh.status, eleventh.body.error]).toEqual([429, 'too_many_requests']);
    expect((await h.api('GET', '/v1/feedback?limit=50', eve.access_token)).body.feedback).toHaveLength(10);
    // Another account is not held up by it.
    expect((await send(bob, { message: 'still fine' })).status).toBe(200);
  });

  it("erases an account's feedback with it, and its screenshots go with the purge", async () => {
    const fay = await h.signUp('fay@example.com', PW);
    const own = Buffer.concat([PNG, Buffer.from('fay only')]);
    await send(fay, { message: 'with a picture', screenshot: own.toString('base64') });
    const [row] = await h.ctx.db.selectFrom('feedback').selectAll().where('user_id', '=', fay.sub).execute();
    expect(await h.ctx.blobs.has(row!.screenshot_hash)).toBe(true);
    await markAccountDeleted(h.ctx, fay.sub);
    expect(await eraseAccount(h.ctx, fay.sub)).toBe('done');
    expect(await h.ctx.db.selectFrom('feedback').selectAll().where('user_id', '=', fay.sub).execute()).toEqual([]);
    expect(await h.ctx.db.selectFrom('attempt_limits').selectAll().where('key', 'like', `%${fay.sub}`).execute()).toEqual([]);
    await collectGarbageBlobs(h.ctx.db, h.ctx.blobs, h.ctx.clock.now() + 1, 0);
    expect(await h.ctx.blobs.has(row!.screenshot_hash)).toBe(false);
    // Others' screenshots stay.
    const ada1 = (await rows()).find((r) => r.screenshot_hash && r.user_id === ada.sub)!;
    expect(await h.ctx.blobs.has(ada1.screenshot_hash)).toBe(true);
  });
});

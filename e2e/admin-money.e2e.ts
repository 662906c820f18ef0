/**
 * Plans and money in the console, in the browser with the sandbox provider: the operator adds a product, a person buys
 * it, the operator finds the order by the buyer's address and refunds it (the person's plan page loses the grant),
 * takes the product off sale (the person's storage page no longer offers it), makes two redeem codes (shown once),
 * the person redeems one (used up, its card offers no Revoke), the operator revokes the other and redeeming it is
 * refused. Screenshots at 1366 and 390 px go to /tmp.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { fitsWidth, PASSWORD, signInBrowser, startE2E, type E2E } from './harness.js';

const SHOTS = process.env.HAUL_SCREENSHOT_DIR ?? '/tmp';
const tag = Date.now().toString(36);
const OPERATOR = `ops-${tag}@example.com`;
const PERSON = `buyer-${tag}@example.com`;
const WIDE = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ config: { paySandbox: true } });
  await createUser(e2e.haul.ctx, { email: OPERATOR, password: PASSWORD, isAdmin: true });
  await createUser(e2e.haul.ctx, { email: PERSON, password: PASSWORD });
}, 60_000);
afterAll(() => e2e?.close());

/** Redeems a code from the redeem box; answers what the box or the toast said. */
async function redeem(page: Page, code: string, words: string): Promise<void> {
  await page.goto('/drive/all?action=open_redeem_box');
  const box = page.getByRole('dialog', { name: 'Redeem a code' });
  await box.getByLabel('Code').fill(code);
  await box.getByRole('button', { name: 'Redeem' }).click();
  await page.getByText(words).first().waitFor();
}

describe('plans and money in the console', () => {
  it('adds goods, refunds an order, takes goods off sale, and makes and revokes redeem codes', async () => {
    const { page: ops } = await e2e.newPage(WIDE);
    const { page: person } = await e2e.newPage(WIDE);
    await signInBrowser(ops, OPERATOR);
    await signInBrowser(person, PERSON);

    // The operator adds a storage pack; a mistake is named at its field before anything is sent.
    await ops.goto('/drive/admin/plans');
    await ops.getByRole('heading', { name: 'Plans and money' }).waitFor();
    await ops.getByRole('link', { name: 'Plans and money' }).waitFor();
    await ops.getByRole('button', { name: 'Add a product' }).click();
    const form = ops.getByRole('form', { name: 'Add a product' });
    await form.getByLabel('Product id').fill('Space 20');
    await form.getByLabel('Title').fill('Space 20 GB');
    await form.getByLabel('What it grants').fill('storage:20GB/30d');
    await form.getByLabel('Price').fill('2.50');
    await form.getByLabel('Currency').fill('eur');
    await form.getByRole('button', { name: 'Put on sale' }).click();
    await form.getByText('Use 1 to 48 lower-case letters, digits and dashes').waitFor();
    await form.getByLabel('Product id').fill('space-20');
    await form.getByRole('button', { name: 'Put on sale' }).click();
    await ops.getByText('Space 20 GB is on sale.').waitFor();
    const goods = ops.getByRole('list', { name: 'Goods' });
    const product = goods.getByRole('listitem', { name: 'Space 20 GB' });
    await expect.poll(() => product.textContent()).toMatch(/On sale.*20 GB.*€2\.50/);

    // The person buys it with the sandbox.
    await person.goto('/drive/payment/storage');
    await person.getByRole('button', { name: 'Buy Space 20 GB' }).click();
    await person.waitForURL(/\/drive\/payment\/sandbox\//);
    await person.getByRole('button', { name: 'Pay (no money)' }).click();
    await expect.poll(() => person.locator('.pay-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('succeed');
    await person.goto('/drive/payment/management');
    await expect.poll(() => person.locator('.plan-now').textContent()).toContain('+20 GB storage');

    // The operator finds the order by the start of the buyer's address and refunds it.
    await ops.reload();
    const search = ops.getByRole('search', { name: 'Find orders' });
    await search.getByLabel("Buyer's email (or its start)").fill(`buyer-${tag}`);
    await search.getByRole('button', { name: 'Search' }).click();
    const order = ops.getByRole('list', { name: 'Orders' }).getByRole('listitem', { name: `Space 20 GB for ${PERSON}` });
    await expect.poll(() => order.textContent()).toMatch(/Paid.*€2\.50/);
    await order.getByRole('button', { name: 'Refund' }).click();
    const confirm = ops.getByRole('dialog', { name: `Refund €2.50 to ${PERSON}?` });
    expect(await confirm.textContent()).toContain('20 GB');
    await confirm.getByRole('button', { name: 'Refund' }).click();
    await ops.getByText(`Refunded €2.50 to ${PERSON}.`).waitFor();
    await expect.poll(() => order.textContent()).toContain('Refunded');
    expect(await order.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    await person.reload();
    await person.locator('.plan-now').waitFor();
    await expect.poll(() => person.locator('.plan-now').textContent()).not.toContain('+20 GB storage');

    // Off sale: the person's storage page no longer offers it, and the console can put it back.
    await product.getByRole('button', { name: 'Take off sale' }).click();
    await ops.getByRole('dialog', { name: 'Take Space 20 GB off sale?' }).getByRole('button', { name: 'Take off sale' }).click();
    await ops.getByText('Space 20 GB is off sale.').waitFor();
    await product.getByRole('button', { name: 'Put back on sale' }).waitFor();
    await person.goto('/drive/payment/storage');
    await person.getByRole('heading').first().waitFor();
    await person.waitForLoadState('networkidle');
    expect(await person.getByRole('button', { name: 'Buy Space 20 GB' }).count()).toBe(0);

    // Two codes, shown once; the person redeems one, the operator revokes the other.
    await ops.getByRole('button', { name: 'Make codes' }).click();
    const make = ops.getByRole('form', { name: 'Make codes' });
    await make.getByLabel('What it grants').fill('premium:7d');
    await make.getByLabel('How many codes').fill('2');
    await make.getByLabel('Expires after (days)').fill('30');
    await make.getByLabel('Note').fill('Launch party');
    await make.getByRole('button', { name: 'Make the codes' }).click();
    const box = ops.getByRole('region', { name: 'New codes (2)' });
    await box.getByText('Copy them now: they are not shown again.').waitFor();
    const codes = (await box.getByRole('textbox').inputValue()).split('\n');
    expect(codes).toHaveLength(2);
    for (const c of codes) expect(c).toMatch(/^[2-9A-Z]{4}(-[2-9A-Z]{4}){3}$/);
    await ops.screenshot({ path: join(SHOTS, 'admin-money-1366.png'), fullPage: true });
    await box.getByRole('button', { name: 'I have copied them' }).click();
    expect(await box.count()).toBe(0);
    // The list never shows a code.
    const codeList = ops.getByRole('list', { name: 'Redeem codes' });
    await expect.poll(() => codeList.getByRole('listitem').count()).toBe(2);
    for (const c of codes) expect(await ops.content()).not.toContain(c);

    await redeem(person, codes[0]!, 'Redeemed: 7 days of premium.');
    await ops.reload();
    const usable = codeList.getByRole('listitem').filter({ hasText: 'Usable' });
    const usedUp = codeList.getByRole('listitem').filter({ hasText: 'Used up' });
    await expect.poll(() => usedUp.count()).toBe(1);
    await expect.poll(() => usable.count()).toBe(1);
    // A used-up code has nothing left to stop: no Revoke on its card, only on the usable one.
    expect(await usedUp.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect(await usable.getByRole('button', { name: 'Revoke' }).count()).toBe(1);
    await usable.getByRole('button', { name: 'Revoke' }).click();
    await ops.getByRole('dialog', { name: 'Revoke this code?' }).getByRole('button', { name: 'Revoke' }).click();
    await ops.getByText('The code is revoked.').waitFor();
    await expect.poll(() => codeList.getByRole('listitem').filter({ hasText: 'Revoked' }).count()).toBe(1);
    await redeem(person, codes[1]!, 'This code does not exist or has expired.');

    // The audit log names each change.
    await ops.goto('/drive/admin/audit');
    for (const action of ['Order refunded', 'Product taken off sale', 'Redeem codes made', 'Redeem code revoked']) {
      await ops.locator('.audit-row').filter({ hasText: action }).first().waitFor();
    }
    // What changed, in words: the refund names the amount, the codes their count; never a code.
    expect(await ops.locator('.audit-row[data-action="admin.order.refunded"]').first().textContent()).toContain('Amount: 2.50 EUR');
    expect(await ops.locator('.audit-row[data-action="admin.codes.created"]').first().textContent()).toContain('Codes: 2');
    for (const c of codes) expect(await ops.content()).not.toContain(c);

    // A phone: the page fits, its cards and forms usable.
    const { page: phone } = await e2e.newPage(PHONE);
    await signInBrowser(phone, OPERATOR);
    await phone.goto('/drive/admin/plans');
    await phone.getByRole('list', { name: 'Orders' }).getByRole('listitem').first().waitFor();
    await phone.getByRole('list', { name: 'Redeem codes' }).getByRole('listitem').first().waitFor();
    expect(await fitsWidth(phone)).toBe(true);
    await phone.screenshot({ path: join(SHOTS, 'admin-money-390.png'), fullPage: true });
  });
});

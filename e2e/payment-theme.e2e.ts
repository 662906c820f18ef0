/**
 * The payment page's choice of provider in dark mode: the app's select on the theme's surface (not the browser's light
 * box), labelled, and chosen with the keyboard. Two providers are set up, so the choice is offered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, signUpInBrowser, startE2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  // Stripe is only listed here: nothing is paid, so its API is never called.
  e2e = await startE2E({ config: { paySandbox: true, stripe: { secretKey: 'sk_test_e2e', webhookSecret: 'whsec_e2e', apiBase: null } } });
});
afterAll(() => e2e?.close());

describe('the payment provider in dark mode', () => {
  it("is the app's select, in the theme's colours, and the keyboard chooses", async () => {
    const { page } = await e2e.newPage({ colorScheme: 'dark' });
    await signUpInBrowser(page);
    await page.goto('/drive/payment');
    const select = page.getByRole('combobox', { name: 'Pay with' });
    await select.waitFor();
    expect(await select.evaluate((el) => el.closest('label')?.classList.contains('field'))).toBe(true);
    const colours = await select.evaluate((el) => ({
      select: getComputedStyle(el).backgroundColor,
      text: getComputedStyle(el).color,
      edge: getComputedStyle(el).borderTopColor,
      surface: getComputedStyle(document.documentElement).backgroundColor,
      ink: getComputedStyle(document.documentElement).color,
    }));
    expect(colours).toEqual({
      select: 'rgb(21, 24, 29)',
      text: colours.ink,
      edge: 'rgb(104, 114, 127)',
      surface: 'rgb(21, 24, 29)',
      ink: colours.ink,
    });

    const names = await select.locator('option').allTextContents();
    expect(names).toHaveLength(2);
    const first = await select.inputValue();
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => select.inputValue()).not.toBe(first);
    // A visible keyboard focus in the theme's accent.
    expect(await select.evaluate((el) => [el.matches(':focus-visible'), getComputedStyle(el).outlineStyle])).toEqual([true, 'solid']);
  });
});

/**
 * Phone numbers, the light part: what looks like one. The full rule (validity, E.164) is in phone-numbers.ts, a
 * package entry of its own (`@haul/shared/phone-numbers`), so the web app loads its numbering plans only where a
 * number is typed or shown.
 */

/** Longest input taken as a phone number (E.164 itself has at most 15 digits). */
export const PHONE_NUMBER_MAX_LENGTH = 40;

/**
 * Whether a sign-in name is meant as a phone number rather than an e-mail address (seed 001: "the username is checked
 * as a phone number when it looks like one"): digits and separators only, at least six digits, an optional leading +.
 */
export function looksLikePhoneNumber(s: string): boolean {
  const t = s.trim();
  return /^\+?[0-9 ().-]+$/.test(t) && t.replace(/\D/g, '').length >= 6;
}

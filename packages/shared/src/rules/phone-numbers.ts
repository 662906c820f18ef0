/**
 * Phone numbers, the same rule in the web form and the server: written in international form (a `+` and the country
 * code, spaces, dots, dashes and brackets allowed), checked against the numbering plan of its country by
 * libphonenumber-js, and kept in E.164 (`+14155552671`), the one form that lookups and uniqueness use.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { PHONE_NUMBER_MAX_LENGTH } from './phone.js';

/** The number in E.164, or null when it is not a valid number written with its country code. */
export function normalPhoneNumber(s: string): string | null {
  const t = s.trim();
  if (!t.startsWith('+') || t.length > PHONE_NUMBER_MAX_LENGTH || !/^\+[0-9 ().-]+$/.test(t)) return null;
  const parsed = parsePhoneNumberFromString(t);
  return parsed?.isValid() ? parsed.number : null;
}

/** An E.164 number the way people write it internationally (`+1 415 555 2671`); anything else unchanged. */
export function displayPhoneNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

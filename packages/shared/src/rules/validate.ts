/** Input checks the web client runs before a call and the server runs again. */

/** Word characters with - + . separators, an @, and a domain containing a dot. */
const EMAIL = /^\w+([-+.]\w+)*@\w+([-.]\w+)*\.\w+([-.]\w+)*$/;

export function isEmail(s: string): boolean {
  return EMAIL.test(s);
}

export function isHttpUrl(s: string): boolean {
  return /^https?:\/\//i.test(s.trim());
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * The effective configuration as the console shows it: every setting flattened to `a.b.0.c` keys, each value as
 * text, with secrets masked twice over. By name: a key whose last word names a secret (password, secret, token, key,
 * credential, a database or mail address) is answered masked whatever it holds. By value: any address with a user or
 * password in it (`smtp://user:pass@host`) loses them, and query parameters named like secrets lose their values, so a
 * secret that sits in a setting no pattern foresaw is still not shown.
 */

/**
 * The last word of a key (camelCase or snake_case) that makes it a secret: `metricsToken`, `secretAccessKey`,
 * `clientSecret`, `torrentDaemonPassword`; not `accessTokenTtlSeconds` nor `allowPrivateNetwork`, which only mention one.
 */
const SECRET_WORD = /^(pass|password|passphrase|passwd|pwd|secret|secrets|token|tokens|key|keys|credential|credentials|salt|cookie|signature)$/i;
/** Keys naming a key by its id, itself a credential half (S3's access key id). */
const SECRET_KEY_ID = /(access|api|secret)_?key_?id$/i;
/** Whole values that are addresses holding credentials as often as not: masked entirely. */
const SECRET_URL_KEY = /^(databaseUrl|smtpUrl|smsWebhookUrl)$/i;
/** Query parameters of an address that carry secrets. */
const SECRET_PARAM = /pass|secret|token|key|sig|auth|credential/i;

export interface ConfigEntry {
  key: string;
  value: string;
  masked: boolean;
}

/** True when `key` (its last part) names a secret. */
export function isSecretKey(key: string): boolean {
  const last = key.split('.').pop() ?? key;
  const words = last.split(/_|-|(?<=[a-z0-9])(?=[A-Z])/);
  return SECRET_WORD.test(words[words.length - 1] ?? '') || SECRET_KEY_ID.test(last) || SECRET_URL_KEY.test(last);
}

/** `scheme://user:pass@host/…?token=x` → `scheme://host/…?token=***`; text that holds no address is left as it is. */
export function scrubUrls(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      // Not parseable: drop anything that looks like userinfo all the same.
      return raw.replace(/\/\/[^/@\s]*@/, '//');
    }
    url.username = '';
    url.password = '';
    for (const name of [...url.searchParams.keys()]) if (SECRET_PARAM.test(name)) url.searchParams.set(name, '***');
    // Some schemes keep userinfo in the text even after clearing it (non-special URLs): drop it by hand too.
    return url.toString().replace(/\/\/[^/@\s]*@/, '//');
  });
}

/** A leaf value as text: strings as they are, the rest as JSON. */
function leafText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof URL) return v.toString();
  if (v === undefined) return '';
  return JSON.stringify(v) ?? '';
}

function walk(prefix: string, value: unknown, out: ConfigEntry[], underSecret: boolean): void {
  const secret = underSecret || (prefix !== '' && isSecretKey(prefix));
  if (value !== null && typeof value === 'object' && !(value instanceof URL) && !(value instanceof Date)) {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (entries.length === 0) out.push({ key: prefix, value: Array.isArray(value) ? '[]' : '{}', masked: false });
    for (const [k, v] of entries) walk(prefix ? `${prefix}.${k}` : k, v, out, secret);
    return;
  }
  if (typeof value === 'function') return;
  const unset = value === null || value === undefined || value === '';
  if (secret && !unset) out.push({ key: prefix, value: '', masked: true });
  else out.push({ key: prefix, value: scrubUrls(leafText(value)), masked: false });
}

/** Every setting of `config`, sorted by key, secrets masked (an unset secret shows as unset: that is no secret). */
export function maskedConfig(config: object): ConfigEntry[] {
  const out: ConfigEntry[] = [];
  walk('', config, out, false);
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

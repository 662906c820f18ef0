/**
 * The operator's OpenID Connect providers (HAUL_OIDC_PROVIDERS): a JSON array of
 * `{ "id", "name", "issuer", "client_id", "client_secret", "scopes"? }`. Checked at start, so a typo stops the server
 * with a message instead of failing the first person who clicks the button.
 */

/** One provider people may sign in with. */
export interface OidcProviderConfig {
  /** Short and stable: it names the provider in the API and in the account's connections. */
  id: string;
  /** Shown on the button: "Continue with <name>". */
  name: string;
  /** The issuer identifier; its /.well-known/openid-configuration is read on first use. */
  issuer: string;
  clientId: string;
  /** Never logged nor answered. */
  clientSecret: string;
  scopes: string[];
}

const ID = /^[a-z0-9_-]{1,40}$/;

/** Parses the setting: a JSON string (the environment) or an array (a HAUL_CONFIG file); empty means none. */
export function parseOidcProviders(raw: unknown): OidcProviderConfig[] {
  if (raw === undefined || raw === null || raw === '') return [];
  let list: unknown = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      throw new Error('HAUL_OIDC_PROVIDERS must be a JSON array of {id, name, issuer, client_id, client_secret, scopes}');
    }
  }
  if (!Array.isArray(list)) throw new Error('HAUL_OIDC_PROVIDERS must be a JSON array');
  const seen = new Set<string>();
  return list.map((p: Record<string, unknown>, i) => {
    const where = `HAUL_OIDC_PROVIDERS[${i}]`;
    const str = (k: string) => (typeof p?.[k] === 'string' ? (p[k] as string).trim() : '');
    const id = str('id');
    if (!ID.test(id)) throw new Error(`${where}.id must be 1-40 lowercase letters, digits, "-" or "_"`);
    if (seen.has(id)) throw new Error(`${where}.id "${id}" is listed twice`);
    seen.add(id);
    const issuer = str('issuer');
    if (!/^https?:\/\/[^/]/.test(issuer) || !URL.canParse(issuer)) throw new Error(`${where}.issuer must be an http(s) address`);
    const clientId = str('client_id');
    if (!clientId) throw new Error(`${where}.client_id is missing`);
    const scopes = p.scopes === undefined ? ['openid', 'email', 'profile'] : p.scopes;
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && /^[\x21-\x7e]+$/.test(s))) throw new Error(`${where}.scopes must be an array of scope names`);
    return {
      id,
      name: str('name') || id,
      issuer,
      clientId,
      clientSecret: typeof p.client_secret === 'string' ? p.client_secret : '',
      scopes: scopes.includes('openid') ? scopes : ['openid', ...scopes],
    };
  });
}

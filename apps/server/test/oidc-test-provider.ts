/**
 * A real OpenID provider on loopback (oidc-provider) for the sign-in provider tests: accounts with passwords, its own
 * login form (which also grants consent), RS256 keys the test knows, so a test can re-sign an ID token it changed
 * (wrong audience, nonce, issuer, expiry) and prove the relying party refuses it for that reason alone.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { exportJWK, generateKeyPair, decodeJwt, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

export interface TestAccount {
  password: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Set to change the next ID tokens before they leave the token endpoint (re-signed with the provider's key, or `key`). */
  mutateIdToken: ((claims: JWTPayload) => JWTPayload) | null;
  /** Sign changed ID tokens with this key instead of the provider's (a forged signature). */
  forgeKey: CryptoKey | null;
  stop: () => Promise<void>;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, clientName: string, error = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test ID sign-in</title></head><body>
<h1>Sign in to Test ID</h1><p>to continue to ${esc(clientName)}</p>${error ? `<p role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/interaction/${esc(uid)}">
<label>Username <input name="login" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

/** Starts a provider on 127.0.0.1 with one client (`redirectUris`) and the given accounts (login → account). */
export async function startOidcProvider(opts: { accounts: Record<string, TestAccount>; redirectUris: string[]; clientId?: string }): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = opts.clientId ?? 'haul';
  const clientSecret = `secret-${port}-not-for-logs`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const subjectOf = (login: string) => `sub-${login}`;
  const loginOf = (sub: string) => sub.replace(/^sub-/, '');

  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: opts.redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string) => {
      const a = opts.accounts[loginOf(sub)];
      if (!a) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email: a.email, email_verified: a.email_verified, name: a.name }) };
    },
  });
  const self: TestOidcProvider = { issuer, clientId, clientSecret, mutateIdToken: null, forgeKey: null, stop: async () => undefined };

  provider.use(async (ctx: { path: string; body: unknown }, next: () => Promise<void>) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path !== '/token' || !self.mutateIdToken || !body?.id_token) return;
    const claims = self.mutateIdToken(decodeJwt(body.id_token));
    body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(self.forgeKey ?? privateKey);
  });

  const callback = provider.callback();
  server.on('request', async (req, res) => {
    const m = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
    if (!m) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      const clientName = String(details.params.client_id);
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(m[1]!, clientName));
        return;
      }
      const form = await readForm(req);
      const login = form.get('login') ?? '';
      const account = opts.accounts[login];
      if (!account || account.password !== form.get('password')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(m[1]!, clientName, 'Wrong username or password.'));
        return;
      }
      // Signing in here also consents to what the client asked for: the test provider has no consent screen.
      const grant = new provider.Grant({ accountId: subjectOf(login), clientId: details.params.client_id });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: subjectOf(login) }, consent: { grantId } }, { mergeWithLastSubmission: false });
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String((err as Error).message));
    }
  });

  self.stop = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return self;
}

/**
 * Follows an authorization address like a browser with cookies would, signing in on the provider's form, and
 * returns where the provider sent the browser back to (the redirect address with `code` and `state`).
 */
export async function authorizeAtProvider(uri: string, login: string, password: string, redirectPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = uri;
  let init: { method: string; body?: string } = { method: 'GET' };
  for (let step = 0; step < 12; step++) {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (init.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.href.startsWith(redirectPrefix)) return next;
      url = next.href;
      init = { method: 'GET' };
      continue;
    }
    const text = await res.text();
    if (res.status === 200 && /\/interaction\//.test(url) && init.method === 'GET') {
      init = { method: 'POST', body: new URLSearchParams({ login, password }).toString() };
      continue;
    }
    throw new Error(`the provider answered ${res.status} at ${url}: ${text.slice(0, 300)}`);
  }
  throw new Error('too many steps at the provider');
}

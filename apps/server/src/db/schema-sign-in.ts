/** Tables of the ways into an account beside the password: device sign-in, two-factor, third-party apps, sign-in providers. */
import type { Generated } from 'kysely';

/** A device sign-in (RFC 8628): codes hashed; see the 0011 migration. */
export interface DeviceLoginsTable {
  id: string;
  device_code_hash: string;
  user_code_hash: string;
  /** pending, approved, denied or used. */
  status: string;
  /** Who approved or denied it. */
  user_id: string | null;
  client_name: string;
  ip: string;
  user_agent: string;
  /** The pace the device must keep; slow_down adds 5 s. */
  interval_ms: number;
  last_polled_at: number | null;
  created_at: number;
  expires_at: number;
  /** The session that approved it: the device's session is born of it. */
  approved_session_id: Generated<string | null>;
}

/** Two-factor sign-in (TOTP): see the 0014 migration. */
export interface TwoFactorTable {
  user_id: string;
  /** The base32 secret, encrypted (AES-256-GCM, key derived from the token key). */
  secret: string;
  enabled_at: number | null;
  /** The last 30-second step a code was accepted for: a code works once. */
  last_step: number;
  created_at: number;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: number | null;
}

/** A third-party app the operator registered (haul-admin oauth-client): see the 0012 migration. */
export interface OAuthClientsTable {
  id: string;
  name: string;
  /** SHA-256 of a confidential client's secret; null for a public client. */
  secret_hash: string | null;
  /** JSON array of redirect URIs, compared exactly. */
  redirect_uris: string;
  created_at: number;
}

/** An authorization code: one use, a minute, bound to client, redirect URI, person, scope and PKCE challenge. */
export interface OAuthCodesTable {
  id: string;
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scope: string;
  /** BASE64URL(SHA-256(code_verifier)): only S256 is accepted. */
  code_challenge: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The session issued for the code, ended if the code comes back. */
  session_id: string | null;
  /** The person's session that allowed it: the app's session is born of it. */
  parent_session_id: Generated<string | null>;
}

/** A person's consent to an app, for a scope: lets the consent screen go straight through next time. */
export interface OAuthConsentsTable {
  user_id: string;
  client_id: string;
  scope: string;
  created_at: number;
  updated_at: number;
  /** The session that last allowed it; ending that session from elsewhere disconnects the app. */
  session_id: Generated<string | null>;
}

/** Which OpenID Connect identity (issuer + subject) opens which account; one identity per provider per account. */
export interface ProviderLinksTable {
  id: string;
  user_id: string;
  provider_id: string;
  issuer: string;
  subject: string;
  /** What the provider called the address when it was connected, for the account page. */
  email: string;
  created_at: number;
}

/** A sign-in begun at a provider, keyed by the SHA-256 of its state: PKCE verifier and nonce until the code comes back. */
export interface ProviderStatesTable {
  id: string;
  provider_id: string;
  redirect_uri: string;
  code_verifier: string;
  nonce: string;
  created_at: number;
  expires_at: number;
  exchanged_at: number | null;
  spent_at: number | null;
}

/** Passkeys (WebAuthn) and their challenges: see the 0045 migration. */

/** One registered credential of an account. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url, as the browser names it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter last seen (0 for authenticators that keep none). */
  counter: number;
  /** JSON array of transports. */
  transports: string;
  name: string;
  backed_up: number;
  created_at: number;
  last_used_at: number | null;
}

/** A challenge handed out and not yet spent; `id` is the SHA-256 of its value. */
export interface PasskeyChallengesTable {
  id: string;
  purpose: 'register' | 'sign_in';
  user_id: string | null;
  session_id: string | null;
  expires_at: number;
  created_at: number;
}

/**
 * Passkeys of the signed-in account: list, add (the browser's create prompt between the server's options and its
 * check, both with the sudo token), rename, remove. The WebAuthn library loads with the first call that needs it.
 */
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { haul } from '../../lib/api-client';

export const listPasskeys = () => haul.call('listPasskeys');

/** An IP address (v4, or v6 in brackets): browsers refuse it as a passkey's site. */
const ipHost = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || host.includes(':');

/** Whether this page can make and use passkeys: WebAuthn, a secure context, and a host name rather than an IP address. */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function' && !ipHost(window.location.hostname);

/** Asks the server for options, lets the browser make the passkey, and has the server check and keep it. */
export async function addPasskey(sudoToken: string, name?: string) {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const { options } = await haul.call('passkeyRegistrationOptions', { body: { sudo_token: sudoToken } });
  const credential = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return haul.call('addPasskey', { body: { sudo_token: sudoToken, credential: credential as unknown as Record<string, unknown>, ...(name ? { name } : {}) } });
}

export const renamePasskey = (id: string, name: string) => haul.call('renamePasskey', { params: { id }, body: { name } });

export const removePasskey = (id: string, sudoToken: string) => haul.call('removePasskey', { params: { id }, body: { sudo_token: sudoToken } });

/** What a WebAuthn prompt's failure was: the person closed it, the authenticator holds one already, or something else. */
export function promptFailure(err: unknown): 'cancelled' | 'exists' | null {
  const e = err as { name?: string; code?: string } | null;
  if (e?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || e?.name === 'InvalidStateError') return 'exists';
  if (e?.name === 'NotAllowedError' || e?.name === 'AbortError' || e?.code === 'ERROR_CEREMONY_ABORTED') return 'cancelled';
  return null;
}

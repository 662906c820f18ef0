/**
 * Sign-in providers: the round trip through a provider's own sign-in page. Before leaving, the page keeps what it is
 * doing (sign in, or connect to the signed-in account), the random state it sent and where to go after, in
 * sessionStorage (this tab only). The callback goes on only when the state that comes back equals the kept one and
 * a code came with it; anything else does nothing (the seeds' rule, and what stops a planted callback link).
 */
import { haul } from '../../lib/api-client';
import { withSecondFactor } from '../two-factor/second-factor';
import { dropInvitationCode, pendingInvitationCode } from '../activity/invitation-code';

const KEY = 'haul.providerFlow';
/** States of provider round trips start with this, so no other callback handling takes them for its own. */
const STATE_PREFIX = 'provider.';

export type FlowPurpose = 'signin' | 'bind';

interface PendingFlow {
  state: string;
  providerId: string;
  purpose: FlowPurpose;
  /** Where to land after a sign-in (a same-app path). */
  redirect: string;
  /** Connecting an account with a password: the sudo token its password earned just before leaving. */
  sudoToken?: string;
}

/** Where every provider sends the browser back to: the address the operator registers with the provider. */
export const callbackUri = () => `${window.location.origin}/drive/login/callback`;

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return STATE_PREFIX + btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export const listSignInProviders = () => haul.call('listSignInProviders');
export const listLinkedProviders = () => haul.call('listLinkedProviders');
export const unbindProvider = (providerId: string) => haul.call('unbindProvider', { body: { provider_id: providerId } });

/** Sends the browser to the provider's sign-in page; the promise settles only when that fails. */
export async function goToProvider(providerId: string, purpose: FlowPurpose, opts: { redirect?: string; sudoToken?: string } = {}): Promise<void> {
  const state = randomState();
  const { uri } = await haul.call('providerAuthUri', { body: { provider_id: providerId, provider_redirect_uri: callbackUri(), state } });
  const pending: PendingFlow = { state, providerId, purpose, redirect: opts.redirect ?? '/all', sudoToken: opts.sudoToken };
  sessionStorage.setItem(KEY, JSON.stringify(pending));
  window.location.assign(uri);
}

/**
 * The kept round trip that this callback finishes, taken (it works once), or null when the callback is not ours: no
 * round trip kept, another state, or no code.
 */
export function takePendingFlow(params: URLSearchParams): (PendingFlow & { code: string }) | null {
  const raw = sessionStorage.getItem(KEY);
  if (!raw) return null;
  let pending: PendingFlow;
  try {
    pending = JSON.parse(raw) as PendingFlow;
  } catch {
    return null;
  }
  const code = params.get('code') ?? '';
  if (!pending.state || params.get('state') !== pending.state || !code) return null;
  sessionStorage.removeItem(KEY);
  return { ...pending, code };
}

/** Forgets a kept round trip (the provider said the person cancelled). */
export const dropPendingFlow = () => sessionStorage.removeItem(KEY);

/** Trades the code for a provider token, then signs in with it (the session store follows) or connects it. */
export async function finishFlow(flow: PendingFlow & { code: string }): Promise<void> {
  const { provider_token } = await haul.call('providerToken', {
    body: { provider_code: flow.code, provider_id: flow.providerId, provider_redirect_uri: callbackUri(), state: flow.state },
  });
  if (flow.purpose === 'signin') {
    // A first sign-in makes the account: the invite code the person came with goes along.
    const invitation = pendingInvitationCode() ?? undefined;
    await haul.signIn(await withSecondFactor((code) => haul.call('signInWithProvider', { body: { provider_token, verification_code: code, invitation_code: invitation } })));
    dropInvitationCode();
  } else {
    // Connecting from the account page replaces an identity of the same provider the person connected before.
    await haul.call('bindProvider', { body: { provider_token, force_replace: true, sudo_token: flow.sudoToken } });
  }
}

/**
 * Connecting the extension to a person's Haul by device sign-in (RFC 8628, as the command line does it): the server
 * gives a code, the person approves it on Haul's approval page where they are signed in, and the polling extension
 * gets its own session. Signing out revokes that session on the server and forgets it here.
 */
import { isApiError, signInWithDevice, type DeviceCode } from '@haul/client';
import { haulOrigin } from './address';
import { clientFor } from './haul-client';
import { forgetStored, readStored, writeStored } from './storage';
import { t } from './i18n';
import { NotHaulError } from './words';

/** What the person is shown while the extension waits for approval. */
export interface PendingApproval {
  userCode: string;
  /** Haul's approval page with the code filled in (/drive/qr-login?code=…). */
  approveUrl: string;
  expiresAt: number;
}

/** The name the approval screen and the signed-in devices list show for this browser's extension. */
export const CLIENT_NAME = 'Haul browser extension';

const looksLikeHaul = (code: Partial<DeviceCode>): code is DeviceCode =>
  typeof code.device_code === 'string' && typeof code.user_code === 'string' && typeof code.verification_uri_complete === 'string';

/**
 * Whether anything answers at `server` at all. A site that is not Haul sends no CORS headers for the extension, so its
 * answer cannot be read and looks like a network failure; an opaque request still tells "answers" from "unreachable".
 */
async function answersAtAll(server: string): Promise<boolean> {
  try {
    await fetch(`${server}/`, { mode: 'no-cors', cache: 'no-store', credentials: 'omit' });
    return true;
  } catch {
    return false;
  }
}

/** Connects to the Haul at the typed address; resolves with the account's e-mail once the code is approved. */
export async function connect(typed: string, opts: { onCode: (p: PendingApproval) => void; signal?: AbortSignal }): Promise<{ server: string; email: string }> {
  const server = haulOrigin(typed);
  if (!server) throw new Error(t('typeAddress'));
  // A new connection starts clean: a session still held is ended, no folder of another account carries over.
  await signOut();
  await writeStored({ server });
  const client = clientFor(server);
  try {
    await signInWithDevice(client, {
      clientName: CLIENT_NAME,
      signal: opts.signal,
      onCode: (code) => {
        if (!looksLikeHaul(code)) throw new NotHaulError(server);
        opts.onCode({ userCode: code.user_code, approveUrl: code.verification_uri_complete, expiresAt: Date.now() + code.expires_in * 1000 });
      },
    });
  } catch (err) {
    // No usable answer: either nothing answers at all (unreachable), or something that is not Haul's API does.
    if (isApiError(err) && err.status === 0 && (await answersAtAll(server))) throw new NotHaulError(server);
    if (isApiError(err) && err.status !== 0 && !err.body?.error) throw new NotHaulError(server);
    throw err;
  }
  const me = await client.call('getMe');
  return { server, email: me.email };
}

/**
 * Signs out: the server ends this session (its refresh and access tokens stop working), then the tokens and the chosen
 * folder are forgotten here; the address stays to connect again. Answers false when the server could not be told, so
 * the person knows to end the session from Haul's signed-in devices page.
 */
export async function signOut(): Promise<boolean> {
  const server = await readStored('server');
  const session = await readStored('session');
  let told = true;
  if (server && session) {
    told = await clientFor(server)
      .call('revokeToken', { body: { token: session.refreshToken } })
      .then(() => true)
      .catch(() => false);
  }
  await forgetStored('session', 'folder');
  return told;
}

/** Words for a device sign-in that ended without tokens. */
export function signInFailure(err: unknown): string | null {
  if (isApiError(err, 'access_denied')) return t('signInRefused');
  if (isApiError(err, 'expired_token')) return t('codeExpired');
  return null;
}

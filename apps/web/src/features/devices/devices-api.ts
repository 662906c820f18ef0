/** Signed-in devices, and device sign-in (RFC 8628) from both sides: the browser showing a code, the one approving it. */
import { signInWithDevice, type DeviceCode } from '@haul/client';
import { haul } from '../../lib/api-client';

export type { DeviceCode };

export const listSessions = async () => (await haul.call('listSessions')).sessions;

export const endSession = (sessionId: string, sudoToken: string) => haul.call('endSession', { body: { session_id: sessionId, sudo_token: sudoToken } });

export const deviceLoginInfo = (userCode: string) => haul.call('deviceLoginInfo', { query: { user_code: userCode } });

/** Approves (with a sudo token when the account has a password) or refuses a device sign-in. */
export const answerDeviceLogin = (userCode: string, approve: boolean, sudoToken?: string) =>
  haul.call('authorizeDevice', { body: { user_code: userCode, approve, ...(sudoToken ? { sudo_token: sudoToken } : {}) } });

/** Shows a code, waits for a signed-in device to approve it, and keeps the session (the app follows the store). */
export const signInByCode = (onCode: (code: DeviceCode) => void, signal: AbortSignal) => signInWithDevice(haul, { onCode, signal });

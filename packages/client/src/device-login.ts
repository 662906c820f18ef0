/**
 * Signing a device in with a code (RFC 8628), as a TV, the command line or a browser showing a QR code does it: ask
 * for a code pair, show the user code, poll the token endpoint at the given interval until the person answers.
 * authorization_pending polls on; slow_down doubles the interval (seed 001 §4; the RFC's floor of +5 s is kept);
 * any other error ends the sign-in. The tokens are kept as the client's session.
 */
import type { TokenResponse } from '@haul/shared';
import { DEVICE_CODE_GRANT } from '@haul/shared/plain';
import type { Answer, HaulClient } from './client.js';
import { ApiError, isApiError } from './errors.js';

export type DeviceCode = Answer<'startDeviceLogin'>;

export interface DeviceLoginOptions {
  /** What the device is, shown on the approval screen. */
  clientName?: string;
  /** Called once with the codes to show (and to put in a QR code). */
  /** Shows the code; a promise is awaited before the polling starts. */
  onCode: (code: DeviceCode) => void | Promise<void>;
  signal?: AbortSignal;
  /** Waits between polls (tests and UIs may count down). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const sleepFor = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
    }, { once: true });
  });

/** The next interval after a slow_down: doubled, and at least 5 s more (RFC 8628 §3.5). */
export const slowerInterval = (ms: number) => Math.max(ms * 2, ms + 5000);

export async function signInWithDevice(client: HaulClient, opts: DeviceLoginOptions): Promise<TokenResponse> {
  const sleep = opts.sleep ?? sleepFor;
  const code = await client.call('startDeviceLogin', { body: opts.clientName ? { client_name: opts.clientName } : {}, signal: opts.signal });
  await opts.onCode(code);
  let interval = code.interval * 1000;
  const deadline = Date.now() + code.expires_in * 1000;
  for (;;) {
    await sleep(interval, opts.signal);
    try {
      // A device grant always answers a refresh token (only an app without `offline` gets none).
      const tokens = (await client.call('refreshToken', { body: { grant_type: DEVICE_CODE_GRANT, device_code: code.device_code }, signal: opts.signal })) as TokenResponse;
      await client.signIn(tokens);
      return tokens;
    } catch (err) {
      if (isApiError(err, 'authorization_pending')) continue;
      if (isApiError(err, 'slow_down')) {
        interval = slowerInterval(interval);
        continue;
      }
      // A network hiccup is worth another poll while the code lives; the server's own refusals end it.
      if (err instanceof ApiError && err.status === 0 && Date.now() < deadline) continue;
      throw err;
    }
  }
}

/** haul login, logout and whoami. */
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { isApiError, signInWithDevice } from '@haul/client';
import type { Ctx } from '../context.js';
import { readConfig, writeConfig } from '../config.js';
import { CliError, EXIT } from '../output.js';

export interface LoginOptions {
  email?: string;
  passwordStdin?: boolean;
  /** Two-factor sign-in: the authenticator app's code, or a recovery code. */
  code?: string;
  device?: boolean;
  name?: string;
}

/** Reads a line from stdin; on a terminal the typed characters are not shown. */
async function readSecret(prompt: string, hidden: boolean): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: hidden && !!process.stdin.isTTY });
  if (hidden && process.stdin.isTTY) {
    // Echo nothing while the password is typed.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
      if (s.startsWith(prompt)) process.stderr.write(prompt);
    };
  }
  try {
    const line = await new Promise<string>((resolve, reject) => {
      rl.question(prompt, resolve);
      rl.once('close', () => reject(new CliError('No input: nothing was read.', EXIT.USAGE)));
    });
    if (hidden && process.stdin.isTTY) process.stderr.write('\n');
    return line;
  } finally {
    rl.removeAllListeners('close');
    rl.close();
  }
}

export async function login(ctx: Ctx, opts: LoginOptions): Promise<void> {
  if (opts.device) return loginWithCode(ctx, opts.name);
  const interactive = !!process.stdin.isTTY && !opts.passwordStdin;
  const email = opts.email || (interactive ? await readSecret('E-mail: ', false) : readConfig().email);
  if (!email) throw new CliError('Give the e-mail with --email (and the password on stdin with --password-stdin).', EXIT.USAGE);
  const password = (await readSecret(interactive ? 'Password: ' : '', true)).replace(/\r?\n$/, '');
  if (!password) throw new CliError('No password given.', EXIT.USAGE);
  const signIn = (code?: string) => ctx.client.call('signIn', { body: { username: email.trim(), password, verification_code: code } });
  let tokens;
  try {
    tokens = await signIn(opts.code);
  } catch (err) {
    // Two-factor sign-in: the password was right; the app's code is asked for on a terminal, else it must come as --code.
    if (!isApiError(err, 'two_factor_required') || opts.code) throw err;
    if (!interactive) throw new CliError('This account has two-factor sign-in: give the code from its authenticator app with --code.', EXIT.AUTH);
    tokens = await signIn((await readSecret('Code from your authenticator app (or a recovery code): ', false)).trim());
  }
  writeConfig({ server: ctx.server, email: email.trim() });
  await ctx.client.signIn(tokens);
  ctx.out.result({ server: ctx.server, email: email.trim(), user_id: tokens.sub }, () => `Signed in to ${ctx.server} as ${email.trim()}.`);
}

/**
 * Signs in without typing a password here (a server without a keyboard, a shared machine): shows a code and a QR code
 * of the approval page on stderr, and waits until the person approves it from a signed-in browser or phone.
 */
async function loginWithCode(ctx: Ctx, name?: string): Promise<void> {
  const stop = new AbortController();
  const interrupt = () => stop.abort(new CliError('Sign-in stopped.', EXIT.USAGE));
  process.once('SIGINT', interrupt);
  try {
    const tokens = await signInWithDevice(ctx.client, {
      clientName: name || `haul command line on ${hostname()}`,
      signal: stop.signal,
      onCode: async (code) => {
        // qrcode is loaded only here: every other command would pay for it at start-up.
        const qr = process.stderr.isTTY ? await (await import('qrcode')).default.toString(code.verification_uri_complete, { type: 'terminal', small: true }) : '';
        process.stderr.write(
          `${qr}To sign in, open ${code.verification_uri} on a device where you are signed in and enter the code\n\n    ${code.user_code}\n\n` +
            `or scan the QR code, or open ${code.verification_uri_complete}\nWaiting for approval (the code lasts ${Math.round(code.expires_in / 60)} minutes)…\n`,
        );
      },
    });
    const me = await ctx.client.call('getMe');
    writeConfig({ server: ctx.server, email: me.email });
    ctx.out.result({ server: ctx.server, email: me.email, user_id: tokens.sub }, () => `Signed in to ${ctx.server} as ${me.email}.`);
  } catch (err) {
    if (stop.signal.aborted) throw stop.signal.reason;
    if (isApiError(err, 'access_denied')) throw new CliError('The sign-in was refused.', EXIT.AUTH);
    if (isApiError(err, 'expired_token')) throw new CliError('The code expired before it was approved. Run `haul login --device` again.', EXIT.AUTH);
    throw err;
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}

export async function logout(ctx: Ctx): Promise<void> {
  const session = await ctx.client.sessions.load();
  if (session) await ctx.client.call('revokeToken', { body: { token: session.refreshToken } }).catch(() => undefined);
  await ctx.client.sessions.save(null);
  ctx.out.result({ signed_out: true }, () => 'Signed out.');
}

export async function whoami(ctx: Ctx): Promise<void> {
  if (!(await ctx.client.sessions.load())) throw new CliError('Not signed in. Run `haul login`.', EXIT.AUTH);
  const me = await ctx.client.call('getMe');
  ctx.out.result(me, () => `${me.email} on ${ctx.server}${me.premium ? ' (premium)' : ''}`);
}

/** haul login, logout and whoami. */
import { createInterface } from 'node:readline';
import type { Ctx } from '../context.js';
import { readConfig, writeConfig } from '../config.js';
import { CliError, EXIT } from '../output.js';

export interface LoginOptions {
  email?: string;
  passwordStdin?: boolean;
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
  const interactive = !!process.stdin.isTTY && !opts.passwordStdin;
  const email = opts.email || (interactive ? await readSecret('E-mail: ', false) : readConfig().email);
  if (!email) throw new CliError('Give the e-mail with --email (and the password on stdin with --password-stdin).', EXIT.USAGE);
  const password = (await readSecret(interactive ? 'Password: ' : '', true)).replace(/\r?\n$/, '');
  if (!password) throw new CliError('No password given.', EXIT.USAGE);
  const tokens = await ctx.client.call('signIn', { body: { username: email.trim(), password } });
  writeConfig({ server: ctx.server, email: email.trim() });
  await ctx.client.signIn(tokens);
  ctx.out.result({ server: ctx.server, email: email.trim(), user_id: tokens.sub }, () => `Signed in to ${ctx.server} as ${email.trim()}.`);
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

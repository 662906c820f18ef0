/** Sign-in, sign-up, sign-out, mailed codes, passwords, deleting the account, and the signed-in user's info. */
import i18n from 'i18next';
import { looksLikePhoneNumber } from '@haul/shared/plain';
import { haul } from '../../lib/api-client';
import { isApiError } from '../../lib/api-error';
import { clearLocalUser } from '../sync/local-db';
import { dropInvitationCode, pendingInvitationCode } from '../activity/invitation-code';
import { withSecondFactor } from '../two-factor/second-factor';
import { useSessionStore } from './session-store';

/** Signs in and keeps the session (the store, so the app follows). */
export async function signIn(username: string, password: string): Promise<void> {
  const tokens = await withSecondFactor((code) => haul.call('signIn', { body: { username, password, verification_code: code } }));
  await haul.signIn(tokens);
}

/** Signs in with the token a mailed sign-in code earned (a new address becomes an account where sign-ups are open). */
export async function signInWithCode(verificationToken: string, address: string): Promise<void> {
  const invitation = pendingInvitationCode();
  const tokens = await withSecondFactor((code) =>
    haul.call('signInWithCode', { body: { verification_token: verificationToken, ...addressField(address), verification_code: code, ...(invitation ? { invitation_code: invitation } : {}) } }),
  );
  dropInvitationCode();
  await haul.signIn(tokens);
}

/**
 * Creates the account, which signs it in; `verificationToken` when the server asks for a verified address. The invite
 * code the person came with goes along (the server ignores one it does not know).
 */
export async function signUp(email: string, password: string, verificationToken?: string): Promise<void> {
  const invitation = pendingInvitationCode();
  const tokens = await haul.call('signUp', { body: { email, password, verification_token: verificationToken, ...(invitation ? { invitation_code: invitation } : {}) } });
  dropInvitationCode();
  await haul.signIn(tokens);
}

/**
 * Whether a sign-up sent without a verification token was refused for want of one. The server checks that before the
 * address and the password, and answers `invalid_argument`; the form has checked both by the same rules first, so
 * that answer can mean nothing else here.
 */
export const needsVerification = (err: unknown): boolean => isApiError(err, 'invalid_argument');

/** The field an address goes in: a phone number (the forms checked it with the full rule) or an e-mail address. */
export const addressField = (address: string): { email: string } | { phone_number: string } =>
  looksLikePhoneNumber(address) ? { phone_number: address } : { email: address };

/**
 * Sends a code for signing up, a forgotten password, a new address or a new phone number, in the page's language: by
 * text message when `address` is a phone number, else by mail.
 */
export const sendCode = (usage: 'REGISTER' | 'PASSWORD_RESET' | 'SIGN_IN' | 'REGISTER_SIGN_IN' | 'EMAIL_ADDRESS_CHANGE' | 'PHONE_NUMBER_CHANGE', address: string) =>
  haul.call('requestVerification', { body: { usage, ...addressField(address), locale: i18n.language || 'en-US' } });

/** Trades the mailed code for a one-time verification token. */
export const checkCode = async (verificationId: string, code: string): Promise<string> =>
  (await haul.call('verifyVerification', { body: { verification_id: verificationId, verification_code: code } })).verification_token;

/** Sets a forgotten password (every session of the account ends) and keeps the fresh session the answer starts. */
export async function resetPassword(verificationToken: string, newPassword: string, address: string): Promise<void> {
  const tokens = await withSecondFactor((code) =>
    haul.call('resetPassword', { body: { verification_token: verificationToken, new_password: newPassword, ...addressField(address), verification_code: code } }),
  );
  await haul.signIn(tokens);
}

/**
 * Proves it is the account's owner with the password (and the authenticator app's code, asked for when the account has
 * one); the sudo token works in this session for a few minutes.
 */
export const grantSudo = (password: string) => withSecondFactor((code) => haul.call('grantSudo', { body: { password, verification_code: code } }));

/** A code to the account's own address, for a sudo grant: DELETION before deleting the account, DEFAULT otherwise. */
export const sendOwnCode = (usage: 'DEFAULT' | 'DELETION', channel: 'email' | 'sms' = 'email') =>
  haul.call('requestVerification', { body: { usage, locale: i18n.language || 'en-US', ...(channel === 'sms' ? { selected_channel: 'SMS' } : {}) } });

/** A sudo token for the verification token a code to the account's own address earned. */
export const grantSudoByCode = (verificationToken: string) =>
  withSecondFactor((code) => haul.call('grantSudo', { body: { verification_token: verificationToken, verification_code: code } }));

/** Makes `email` the account's address, with a sudo token and the token of a code mailed to that address. */
export const changeEmail = (sudoToken: string, verificationToken: string, email: string) =>
  haul.call('changeContact', { body: { sudo_token: sudoToken, verification_token: verificationToken, email } });

/** Binds `phone` to the account, with a sudo token and the token of a code texted to that number. */
export const changePhone = (sudoToken: string, verificationToken: string, phone: string) =>
  haul.call('changeContact', { body: { sudo_token: sudoToken, verification_token: verificationToken, phone_number: phone } });

/** Takes the phone number off the account (a sudo token is enough: it takes a way in away). */
export const removePhone = (sudoToken: string) => haul.call('changeContact', { body: { sudo_token: sudoToken, phone_number: '' } });

/** Sets a new password; every other session ends, this one stays. */
export const setPassword = (sudoToken: string, newPassword: string) =>
  haul.call('setPassword', { body: { sudo_token: sudoToken, new_password: newPassword } });

export const getMe = () => haul.call('getMe');
// Only the storage meter reads this: the monthly quotas (with_quotas) are not asked for.
export const getAbout = () => haul.call('getAbout');

/**
 * Ends this session on the server (best effort), or with `everywhere` every session of the account, its download
 * links included; then forgets the session and its local copy.
 */
export async function signOut(opts: { everywhere?: boolean } = {}): Promise<void> {
  const session = useSessionStore.getState().session;
  if (!session) return;
  // Everywhere must reach the server while this session can still ask; an error leaves the person signed in.
  if (opts.everywhere) await haul.call('signOutEverywhere');
  const forgotten = forgetSession(session.userId);
  await Promise.allSettled([forgotten, opts.everywhere ? null : haul.call('revokeToken', { body: { token: session.refreshToken } })]);
}

/**
 * Drops the session at once (the app follows to sign-in), then what this browser kept for the user: the drive's copy,
 * its sync marks, the saved upload tasks.
 */
function forgetSession(userId: string): Promise<void> {
  useSessionStore.getState().signOut();
  return clearLocalUser(userId);
}

/** What deleting the account would erase, and whether it may be deleted now. */
export const deletionEligibility = () => haul.call('accountDeletionEligibility');

/**
 * Deletes the account with a sudo token of this session, then forgets it here as a sign-out does. The server has
 * already ended every session, so there is nothing to revoke; a failure to clear locally does not undo the deletion.
 */
export async function deleteAccount(sudoToken: string): Promise<void> {
  const session = useSessionStore.getState().session;
  await haul.call('deleteAccount', { body: { sudo_token: sudoToken } });
  if (session) await forgetSession(session.userId).catch(() => undefined);
}

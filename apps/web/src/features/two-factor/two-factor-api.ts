/** Two-factor sign-in settings of the signed-in account; each change takes a sudo token. */
import { haul } from '../../lib/api-client';

export const twoFactorStatus = () => haul.call('twoFactorStatus');
export const beginTwoFactor = (sudoToken: string) => haul.call('beginTwoFactor', { body: { sudo_token: sudoToken } });
export const enableTwoFactor = (sudoToken: string, code: string) => haul.call('enableTwoFactor', { body: { sudo_token: sudoToken, code } });
export const disableTwoFactor = (sudoToken: string) => haul.call('disableTwoFactor', { body: { sudo_token: sudoToken } });
export const replaceRecoveryCodes = (sudoToken: string) => haul.call('replaceRecoveryCodes', { body: { sudo_token: sudoToken } });

/** WebDAV: the address to connect to, and the account's app passwords. */
import { haul } from '../../lib/api-client';

export const webdavInfo = () => haul.call('listAppPasswords');

/** Makes an app password (with a sudo token when the account has a password); the answer holds it, shown once. */
export const createAppPassword = (name: string, sudoToken?: string) => haul.call('createAppPassword', { body: { name, ...(sudoToken ? { sudo_token: sudoToken } : {}) } });

export const revokeAppPassword = (id: string) => haul.call('revokeAppPassword', { params: { id } });

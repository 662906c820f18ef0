/** WebDAV: the address to connect to, and the account's app passwords. */
import { haul } from '../../lib/api-client';

export const webdavInfo = () => haul.call('listAppPasswords');

/** Makes an app password; the answer holds the password, shown once. */
export const createAppPassword = (name: string) => haul.call('createAppPassword', { body: { name } });

export const revokeAppPassword = (id: string) => haul.call('revokeAppPassword', { params: { id } });

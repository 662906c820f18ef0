/** The operator's account work beyond changing one: make an account, mail a reset code, grant a plan, delete. */
import { haul } from '../../lib/api-client';
import { ADMIN_KEY } from './admin-api';

export type NewAccount = { email: string; password: string; name?: string; is_admin?: boolean };
export type AccountGrants = Awaited<ReturnType<typeof getGrants>>;

export const grantsKey = (id: string) => [...ADMIN_KEY, 'grants', id] as const;

/** Makes an account by the sign-up rules; answers it as the list shows it. */
export const createAccount = (body: NewAccount) => haul.call('adminCreateUser', { body });

/** Mails the account's owner a password-reset code; answers the address it went to. */
export const sendPasswordReset = (id: string) => haul.call('adminResetPassword', { params: { id } });

/** Premium and the grants that count now or later. */
export const getGrants = (id: string, signal?: AbortSignal) => haul.call('adminListGrants', { params: { id }, signal });

/** Grants a spec (premium:30d, storage:100GB, transfer:50GB/30d); answers premium and the grants as they now are. */
export const grantPlan = (id: string, grant: string) => haul.call('adminGrant', { params: { id }, body: { grant } });

/** Deletes the account; its files, shares and tasks are erased after. */
export const deleteAccount = (id: string) => haul.call('adminDeleteUser', { params: { id } });

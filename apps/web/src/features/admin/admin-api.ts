/**
 * The operator's console calls (`/admin/v1/…`) and the person's own security events, with their query keys: every
 * admin query lives under ['admin'], so one invalidation refreshes the console after a change.
 */
import type { AdminShareSchema, AdminUserSchema, AuditAction, AuditEventSchema, RunTimeSettings, Static } from '@haul/shared';
import { haul } from '../../lib/api-client';

export type AdminUser = Static<typeof AdminUserSchema>;
export type AuditEvent = Static<typeof AuditEventSchema>;
export type AdminUserDetail = Awaited<ReturnType<typeof getUser>>;
export type AdminChange = { disabled?: boolean; is_admin?: boolean; storage_limit?: string };
export type AdminShare = Static<typeof AdminShareSchema>;
/** What an operator may hold a share to; OK gives it back. */
export type HoldStatus = 'OK' | 'AUDITING' | 'PROHIBITED' | 'SENSITIVE_RESOURCE';
export type ShareHold = { status?: HoldStatus; reason?: string; restore_limit?: number };
export type SystemStatus = Awaited<ReturnType<typeof getSystem>>;

/** How many rows a page asks for. */
export const PAGE_SIZE = 50;

export const ADMIN_KEY = ['admin'] as const;
export const usersKey = (q: string) => [...ADMIN_KEY, 'users', q] as const;
export const userKey = (id: string) => [...ADMIN_KEY, 'user', id] as const;
export const auditKey = (userId: string, action: string) => [...ADMIN_KEY, 'audit', userId, action] as const;
export const shareKey = (id: string) => [...ADMIN_KEY, 'share', id] as const;
export const BLOCKED_WORDS_KEY = [...ADMIN_KEY, 'blocked-words'] as const;
export const SYSTEM_KEY = [...ADMIN_KEY, 'system'] as const;
export const OWN_AUDIT_KEY = ['account-audit'] as const;

/** A page of accounts: newest first, or those whose address starts with `q`. */
export const listUsers = (q: string, pageToken: string, signal?: AbortSignal) =>
  haul.call('adminListUsers', { query: { q: q || undefined, limit: PAGE_SIZE, page_token: pageToken || undefined }, signal });

/** One account and what it uses. */
export const getUser = (id: string, signal?: AbortSignal) => haul.call('adminGetUser', { params: { id }, signal });

/** Disables or enables, makes an operator or not, or sets the storage limit; answers the account as it now is. */
export const updateUser = (id: string, change: AdminChange) => haul.call('adminUpdateUser', { params: { id }, body: change });

/** Ends every session of the account. */
export const signOutUser = (id: string) => haul.call('adminSignOutUser', { params: { id } });

/** One share by its id: title, owner, hold, save limit and counts. */
export const getShare = (id: string, signal?: AbortSignal) => haul.call('adminGetShare', { params: { id }, signal });

/** Holds or releases a share, or sets its save limit; answers its status, reason and limit as they now are. */
export const holdShare = (id: string, hold: ShareHold) => haul.call('adminModerateShare', { params: { id }, body: hold });

/** The words no share title or phrase may hold. */
export const getBlockedWords = (signal?: AbortSignal) => haul.call('adminGetBlockedWords', { signal });

/** Replaces the blocked words; answers the list as the server keeps it (lower case, sorted, each once). */
export const setBlockedWords = (words: string[]) => haul.call('adminSetBlockedWords', { body: { words } });

/** The version, the database and blob store, and the last backup. */
export const getSystem = (signal?: AbortSignal) => haul.call('adminSystem', { signal });

/** A page of the audit log, newest first; of one account and of one action when given. */
export const listAudit = (filter: { userId: string; action: AuditAction | '' }, pageToken: string, signal?: AbortSignal) =>
  haul.call('adminListAudit', {
    query: { user_id: filter.userId || undefined, action: filter.action || undefined, limit: PAGE_SIZE, page_token: pageToken || undefined },
    signal,
  });

/** A page of the signed-in account's own security events, newest first. */
export const listOwnAudit = (pageToken: string, signal?: AbortSignal) =>
  haul.call('listAccountAudit', { query: { limit: PAGE_SIZE, page_token: pageToken || undefined }, signal });

export type RunTimeSettingsAnswer = Awaited<ReturnType<typeof getSettings>>;
export const SETTINGS_KEY = [...ADMIN_KEY, 'settings'] as const;

/** The run-time settings: values in force, the environment's, and which were changed here. */
export const getSettings = (signal?: AbortSignal) => haul.call('adminGetSettings', { signal });

/** Changes the given settings (null: back to the environment's value); answers them all as they now are. */
export const updateSettings = (change: Partial<{ [K in keyof RunTimeSettings]: RunTimeSettings[K] | null }>) =>
  haul.call('adminUpdateSettings', { body: change });

/** The live shares opened or saved most (`order` views or saves). */
export type TopOrder = 'views' | 'saves';
export const topSharesKey = (order: TopOrder) => [...ADMIN_KEY, 'top-shares', order] as const;
export const getTopShares = (order: TopOrder, signal?: AbortSignal) => haul.call('adminTopShares', { query: { order, limit: 20 }, signal });

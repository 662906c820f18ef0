/**
 * A share's status in the operator's words, and the changes an operator makes to it: each answer is put in the page at
 * once, then the console's queries refresh.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { ADMIN_KEY, holdShare, shareKey, type AdminShare, type HoldStatus, type ShareHold } from './admin-api';

/** The statuses an operator holds a share to, in the order the page offers them. */
export const HOLDS: readonly Exclude<HoldStatus, 'OK'>[] = ['AUDITING', 'PROHIBITED', 'SENSITIVE_RESOURCE'];

/** Whether the share is held by an operator (and so can be released). */
export const isHeld = (status: string): boolean => (HOLDS as readonly string[]).includes(status);

/** Each status in words; every key written out so the key check finds it. */
const STATUS_TEXT: Record<string, (t: TFunction) => string> = {
  OK: (t) => t('admin.share.status.ok'),
  EXPIRED: (t) => t('admin.share.status.expired'),
  AUDITING: (t) => t('admin.share.status.auditing'),
  PROHIBITED: (t) => t('admin.share.status.prohibited'),
  SENSITIVE_RESOURCE: (t) => t('admin.share.status.sensitiveResource'),
};

/** A share's status in words; a status this client does not know, as the server names it. */
export const shareStatusText = (t: TFunction, status: string): string =>
  Object.hasOwn(STATUS_TEXT, status) ? STATUS_TEXT[status]!(t) : status;

/** `hold` for the share `id`: throws the server's error for the caller to put in words. */
export function useShareHold(id: string) {
  const queryClient = useQueryClient();
  return async (hold: ShareHold) => {
    const now = await holdShare(id, hold);
    queryClient.setQueryData<AdminShare>(
      shareKey(id),
      (old) => old && { ...old, status: now.status, reason: now.reason, restore_limit: now.restore_limit },
    );
    void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    return now;
  };
}

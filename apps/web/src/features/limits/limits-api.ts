/** The account's storage and every transfer quota, as GET about answers them (with_quotas is a comma list). */
import { QUOTA_KINDS } from '@haul/shared/plain';
import { haul } from '../../lib/api-client';

/** One query key for the quota pages, the limit dialogs and the watch that continues limited tasks. */
export const QUOTAS_KEY = ['about', 'quotas'] as const;

export const getQuotas = () => haul.call('getAbout', { query: { with_quotas: QUOTA_KINDS.join(',') } });

/** Used space by kind of file, and the trash apart, for the storage page. */
export const getStorageByKind = () => haul.call('storageByKind');

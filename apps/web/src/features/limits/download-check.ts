/**
 * Before a download leaves for the browser: a download the month cannot hold opens the limit dialog here, since a
 * refused link would otherwise show the browser's own error page.
 */
import { getQuotas } from './limits-api';
import { useLimitDialog } from './limit-store';

/** Whether `bytes` fit in this month's download allowance (true when it cannot be told). */
export async function downloadFits(bytes: number): Promise<boolean> {
  const q = await getQuotas()
    .then((a) => a.quotas.download_size_month)
    .catch(() => undefined);
  if (!q || q.is_unlimited || Number(q.usage) + bytes <= Number(q.limit)) return true;
  useLimitDialog.getState().show({
    type: 'file_down',
    code: 'monthly_download_size_exceeded',
    details: { title: '', kind: 'download_size_month', limit: q.limit, usage: q.usage, needed: String(bytes), reset_at: q.reset_at },
  });
  return false;
}

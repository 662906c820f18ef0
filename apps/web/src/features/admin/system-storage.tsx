/** Storage on the System page: what the blobs take, how often they are referenced, and the local disk's free space. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { getStorage, STORAGE_KEY } from './admin-health-api';
import { sizeText } from './storage-size';

export function SystemStorage() {
  const { t, i18n } = useTranslation();
  const q = useQuery({ queryKey: STORAGE_KEY, queryFn: ({ signal }) => getStorage(signal), meta: { quiet: true } });
  const s = q.data;
  const size = (bytes: string) => sizeText(Number(bytes), i18n.language);
  const count = (n: string) => Number(n).toLocaleString(i18n.language);
  return (
    <section className="admin-card" aria-labelledby="health-storage-title" data-testid="health-storage">
      <h2 id="health-storage-title">{t('adminHealth.storage.title')}</h2>
      {q.isPending && <p className="muted">{t('common.loading')}</p>}
      {q.isError && <FormError error={errorMessage(q.error)} />}
      {s && (
        <dl className="admin-facts">
          <dt>{t('adminHealth.storage.stored')}</dt>
          <dd>{t('adminHealth.storage.blobs', { size: size(s.blob_bytes), n: count(s.blob_count) })}</dd>
          <dt>{t('adminHealth.storage.references')}</dt>
          <dd>{t('adminHealth.storage.referenced', { n: count(s.reference_count), size: size(s.referenced_bytes) })}</dd>
          {s.unreferenced_count !== '0' && (
            <>
              <dt>{t('adminHealth.storage.awaitingPurge')}</dt>
              <dd>{t('adminHealth.storage.blobs', { size: size(s.unreferenced_bytes), n: count(s.unreferenced_count) })}</dd>
            </>
          )}
          <dt>{t('adminHealth.storage.disk')}</dt>
          <dd data-testid="health-disk">
            {s.store === 's3'
              ? t('adminHealth.storage.bucket')
              : s.disk_free_bytes !== null && s.disk_total_bytes !== null
                ? t('adminHealth.storage.free', { free: size(s.disk_free_bytes), total: size(s.disk_total_bytes) })
                : t('admin.system.unknown')}
          </dd>
        </dl>
      )}
    </section>
  );
}

/**
 * /space-management and /traffic-management: storage (and the trash's share of it, and its use by kind of file), and
 * each transfer allowance, with a bar, what counts, when it starts over and an Upgrade button to the payment pages.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatSize } from '@haul/shared/plain';
import type { TrafficQuota } from '@haul/shared';
import { resetWords } from './limit-dialog';
import { getQuotas, getStorageByKind, QUOTAS_KEY } from './limits-api';
import './limits.css';

interface BarProps {
  id: string;
  title: string;
  counts: string;
  used: number;
  limit: number | null;
  words: string;
  resetAt?: string;
  /** Part of `used` drawn apart (the trash). */
  part?: number;
}

function QuotaBar({ id, title, counts, used, limit, words, resetAt, part = 0 }: BarProps) {
  const { t, i18n } = useTranslation();
  const pct = limit ? Math.min(100, (used / limit) * 100) : 0;
  const partPct = limit ? Math.min(pct, (part / limit) * 100) : 0;
  return (
    <section className="quota" aria-labelledby={`${id}-title`} data-quota={id}>
      <div className="quota-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <span>{words}</span>
      </div>
      <div className="quota-bar" role="progressbar" aria-labelledby={`${id}-title`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(pct)} aria-valuetext={words}>
        <span className={pct >= 100 ? 'full' : ''} style={{ width: `${pct - partPct}%`, float: 'left' }} />
        {partPct > 0 && <span className="trash" style={{ width: `${partPct}%`, float: 'left' }} />}
      </div>
      <small>{counts}</small>
      {resetAt && <small>{t('limits.resets', { time: resetWords(resetAt, i18n.language) })}</small>}
    </section>
  );
}

function useQuotas() {
  // Always asked again on opening: the page is where people look after a change (an upgrade, a big upload).
  return useQuery({ queryKey: QUOTAS_KEY, queryFn: getQuotas, staleTime: 0 });
}

/** Used space by kind (videos, images… and the trash), each with its share of what is used. */
function StorageByKind() {
  const { t, i18n } = useTranslation();
  const { data } = useQuery({ queryKey: [...QUOTAS_KEY, 'by-kind'], queryFn: getStorageByKind, staleTime: 0 });
  if (!data) return null;
  const total = Number(data.total);
  const rows = [...data.kinds, { kind: 'trash' as const, ...data.trash }];
  return (
    <section className="quota" aria-labelledby="by-kind-title">
      <h2 id="by-kind-title">{t('limits.byKind')}</h2>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 10 }}>
        {rows.map((r) => {
          const size = Number(r.size);
          return (
            <li key={r.kind} data-kind={r.kind} data-bytes={r.size}>
              <div className="quota-head">
                <span>{t(`limits.kind.${r.kind}`)}</span>
                <span>{t('limits.kindUse', { size: formatSize(size, 1, i18n.language), count: r.count })}</span>
              </div>
              <div className="quota-bar" aria-hidden="true">
                <span className={r.kind === 'trash' ? 'trash' : ''} style={{ width: `${total ? (size / total) * 100 : 0}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function SpaceManagementPage() {
  const { t, i18n } = useTranslation();
  const { data } = useQuotas();
  const size = (n: number) => formatSize(n, 1, i18n.language);
  return (
    <section className="page quota-page">
      <h1>{t('limits.spacePage')}</h1>
      {data && (
        <QuotaBar
          id="storage"
          title={t('limits.storage')}
          counts={t('limits.storageCounts', { trash: size(Number(data.quota.usage_in_trash)) })}
          used={Number(data.quota.usage)}
          part={Number(data.quota.usage_in_trash)}
          limit={Number(data.quota.limit) || null}
          words={t('limits.usedOf', { used: size(Number(data.quota.usage)), limit: size(Number(data.quota.limit)) })}
        />
      )}
      <StorageByKind />
      <p>
        <Link className="btn primary" to="/payment/storage">
          {t('limits.upgradeStorage')}
        </Link>
      </p>
    </section>
  );
}

/** One transfer allowance's bar; `count` for allowances counted in tasks rather than bytes. */
function Traffic({ id, q, count }: { id: string; q: TrafficQuota | undefined; count?: boolean }) {
  const { t, i18n } = useTranslation();
  if (!q) return null;
  const fmt = (v: string) => (count ? v : formatSize(Number(v), 1, i18n.language));
  const words = q.is_unlimited ? t('limits.unlimitedUsed', { used: fmt(q.usage) }) : t('limits.usedOf', { used: fmt(q.usage), limit: fmt(q.limit) });
  return (
    <QuotaBar
      id={id}
      title={t(`limits.quota.${id}.title`)}
      counts={t(`limits.quota.${id}.counts`)}
      used={Number(q.usage)}
      limit={q.is_unlimited ? null : Number(q.limit)}
      words={words}
      resetAt={q.reset_at}
    />
  );
}

export function TrafficManagementPage() {
  const { t } = useTranslation();
  const { data } = useQuotas();
  const q = data?.quotas ?? {};
  return (
    <section className="page quota-page">
      <h1>{t('limits.trafficPage')}</h1>
      <Traffic id="upload_size_month" q={q.upload_size_month} />
      <Traffic id="cloud_download_size_month" q={q.cloud_download_size_month} />
      <Traffic id="download_size_month" q={q.download_size_month} />
      <Traffic id="cloud_download" q={q.cloud_download} count />
      <p className="dialog-actions start">
        <Link className="btn primary" to="/payment/traffic">
          {t('limits.upgradeTraffic')}
        </Link>
        <Link className="btn" to="/payment">
          {t('limits.upgrade')}
        </Link>
      </p>
    </section>
  );
}

/**
 * Free and premium side by side on the premium tab, from the server's own limits (GET /vip/v1/plans/limits): only
 * what premium changes on this server is listed, so a card never promises what the operator does not give.
 */
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { PlanLimits } from '@haul/shared';
import { formatSize } from '@haul/shared/plain';
import { usePlanLimits } from './use-plan-limits';

type Row = keyof PlanLimits;

const ROWS: Row[] = [
  'daily_cloud_downloads',
  'cloud_download_max_size',
  'monthly_cloud_download_size',
  'monthly_upload_size',
  'monthly_download_size',
  'daily_download_size',
  'max_video_resolution',
  'cloud_decompression',
  'webdav',
];

/** "5 GB" for a whole number of units, "1.5 GB" otherwise. */
function sizeWords(n: number, locale: string): string {
  const unit = 1024 ** Math.max(0, Math.floor(Math.log(n) / Math.log(1024)));
  return formatSize(n, n % unit === 0 ? 0 : 1, locale);
}

function valueWords(row: Row, limits: PlanLimits, t: TFunction, locale: string): string {
  const v = limits[row];
  if (typeof v === 'boolean') return v ? t('plans.compare.yes') : t('plans.compare.no');
  if (row === 'daily_cloud_downloads') return t('plans.compare.perDay', { value: (v as number).toLocaleString(locale) });
  if (row === 'max_video_resolution') return v ? t('plans.compare.upTo', { height: v }) : t('plans.compare.allQualities');
  if (v === null) return t('plans.compare.noLimit');
  const size = sizeWords(Number(v), locale);
  if (row.startsWith('monthly_')) return t('plans.compare.perMonth', { value: size });
  if (row.startsWith('daily_')) return t('plans.compare.perDay', { value: size });
  return size;
}

export function PlanCompare() {
  const { t, i18n } = useTranslation();
  const limits = usePlanLimits();
  if (!limits.data) return null;
  const { free, premium } = limits.data;
  const rows = ROWS.filter((r) => free[r] !== premium[r]);
  if (rows.length === 0) return null;
  return (
    <table className="plan-compare">
      <caption>{t('plans.compare.title')}</caption>
      <thead>
        <tr>
          <td />
          <th scope="col">{t('plans.compare.free')}</th>
          <th scope="col">{t('plans.compare.premium')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r} data-limit={r}>
            <th scope="row">{t(`plans.compare.row.${r}`)}</th>
            <td>{valueWords(r, free, t, i18n.language)}</td>
            <td className="plan-compare-premium">{valueWords(r, premium, t, i18n.language)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Usage counts on the System page: one event at a time, a plain SVG bar per day over the last 30 days (no chart
 * library), with the total and each day's figure in its bar's title.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { getStats, STATS_KEY, type StatsAnswer } from './admin-health-api';

const W = 600;
const H = 160;
const AXIS = 18;

/** The bars of one event: every day of the span, zero where nothing was counted. */
export function dailySeries(stats: Pick<StatsAnswer, 'days' | 'counts'>, event: string): { day: string; count: number }[] {
  const byDay = new Map(stats.counts.filter((c) => c.event === event).map((c) => [c.day, c.count]));
  return stats.days.map((day) => ({ day, count: byDay.get(day) ?? 0 }));
}

function Bars({ series, label }: { series: { day: string; count: number }[]; label: string }) {
  const max = Math.max(1, ...series.map((s) => s.count));
  const step = W / Math.max(1, series.length);
  return (
    <svg className="health-chart" viewBox={`0 0 ${W} ${H + AXIS}`} role="img" aria-label={label} data-testid="health-chart">
      {series.map((s, i) => {
        const h = Math.round((s.count / max) * (H - 4));
        return (
          <rect key={s.day} x={i * step + 1} y={H - h} width={Math.max(1, step - 2)} height={h} className="health-bar" data-count={s.count}>
            <title>{`${s.day}: ${s.count}`}</title>
          </rect>
        );
      })}
      <line x1={0} x2={W} y1={H} y2={H} className="health-axis" />
      {series.length > 0 && (
        <>
          <text x={0} y={H + AXIS - 4} className="health-tick">
            {series[0]!.day}
          </text>
          <text x={W} y={H + AXIS - 4} className="health-tick" textAnchor="end">
            {series[series.length - 1]!.day}
          </text>
        </>
      )}
    </svg>
  );
}

export function StatsChart() {
  const { t, i18n } = useTranslation();
  const q = useQuery({ queryKey: STATS_KEY, queryFn: ({ signal }) => getStats(signal), meta: { quiet: true } });
  const [chosen, setChosen] = useState('');
  const events = q.data?.events ?? [];
  const event = events.includes(chosen) ? chosen : (events[0] ?? '');
  const series = q.data && event ? dailySeries(q.data, event) : [];
  const total = series.reduce((a, s) => a + s.count, 0);
  return (
    <section className="admin-card health-wide" aria-labelledby="health-stats-title" data-testid="health-stats">
      <h2 id="health-stats-title">{t('adminHealth.stats.title')}</h2>
      {q.isPending && <p className="muted">{t('common.loading')}</p>}
      {q.isError && <FormError error={errorMessage(q.error)} />}
      {q.data && events.length === 0 && <p className="muted">{t('adminHealth.stats.none')}</p>}
      {q.data && events.length > 0 && (
        <>
          <label className="field health-filter">
            <span>{t('adminHealth.stats.event')}</span>
            <select value={event} onChange={(e) => setChosen(e.target.value)}>
              {events.map((e) => (
                <option key={e} value={e}>
                  {e}
                </option>
              ))}
            </select>
          </label>
          <p className="admin-note">{t('adminHealth.stats.total', { n: total.toLocaleString(i18n.language), days: series.length })}</p>
          <Bars series={series} label={t('adminHealth.stats.chartLabel', { event, days: series.length })} />
        </>
      )}
    </section>
  );
}

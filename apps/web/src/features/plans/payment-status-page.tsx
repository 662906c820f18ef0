/**
 * Where an order stands (/payment/status/:orderId): asked every 2 s (seed 001 §4) until it succeeds, fails or closes.
 * On success the plan's caches refresh and the tasks a limit stopped go on by themselves.
 */
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { continueLimitedTasks } from '../limits';
import { formatPrice, isSharePage, safeReturn } from './plan-format';
import { PLAN_KEYS, payStatus } from './plans-api';
import './plans.css';

const POLL_MS = 2000;
const DONE = new Set(['succeed', 'failed', 'close', 'refunded']);

export function PaymentStatusPage() {
  const { t, i18n } = useTranslation();
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const canceled = params.get('canceled') === '1';
  const status = useQuery({
    queryKey: ['pay-status', orderId],
    queryFn: () => payStatus(orderId),
    refetchInterval: (q) => (canceled || DONE.has(q.state.data?.status ?? '') ? false : POLL_MS),
  });
  const state = status.data?.status;
  const celebrated = useRef(false);
  useEffect(() => {
    if (state !== 'succeed' || celebrated.current) return;
    celebrated.current = true;
    void Promise.all(PLAN_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey: [...queryKey] }))).then(() => continueLimitedTasks());
  }, [state, queryClient]);

  const order = status.data?.order;
  const back = safeReturn(params.get('return') ?? (order?.task_id ? '/all' : null));
  const word = canceled && state === 'pending' ? 'canceled' : (state ?? 'pending');
  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('plans.statusTitle')}</h1>
      </div>
      <div className="account-form" aria-live="polite">
        {status.isError && <FormError error={errorMessage(status.error)} />}
        {order && (
          <p>
            <strong>{order.title}</strong> · {formatPrice(order.price, order.currency, i18n.language)}
          </p>
        )}
        <p className={`pay-state pay-${word}`} data-state={word}>
          {t(`plans.state.${word}`)}
        </p>
        {word === 'succeed' && order?.task_id && <p className="muted">{t('plans.taskContinues')}</p>}
        <p className="plan-links">
          {word === 'succeed' && isSharePage(back) ? (
            <a className="btn primary" href={back}>
              {t('plans.continue')}
            </a>
          ) : word === 'succeed' ? (
            <Link className="btn primary" to={back}>
              {t('plans.continue')}
            </Link>
          ) : DONE.has(word) || word === 'canceled' ? (
            <Link className="btn primary" to={`/payment${params.get('return') ? `?return=${encodeURIComponent(back)}` : ''}`}>
              {t('plans.tryAgain')}
            </Link>
          ) : null}
          <Link className="link" to="/payment/management">
            {t('plans.manage')}
          </Link>
        </p>
      </div>
    </section>
  );
}

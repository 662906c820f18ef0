/**
 * Where an order stands (/payment/status/:orderId): asked every 2 s (seed 001 §4) until it succeeds, fails or closes;
 * an order left unpaid closes as expired on the server, and the page then offers a new checkout of the same product.
 * On success the plan's caches refresh and the tasks a limit stopped go on by themselves.
 */
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { Order } from '@haul/shared';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { continueLimitedTasks } from '../limits';
import { formatPrice, isSharePage, safeReturn } from './plan-format';
import { PLAN_KEYS, payStatus, startPayment } from './plans-api';
import { checkoutPath } from './checkout-path';
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
  const word = canceled && state === 'pending' ? 'canceled' : state === 'close' && order?.expired ? 'expired' : (state ?? 'pending');
  const navigate = useNavigate();
  const [retrying, setRetrying] = useState(false);
  const [retryError, setRetryError] = useState('');
  /** A new checkout of the expired order's product, with the same provider, task and way back. */
  const retry = async (o: Order) => {
    setRetrying(true);
    setRetryError('');
    try {
      const returnPath = params.get('return') ?? undefined;
      const started = await startPayment({ provider: o.provider, productId: o.product_id, recurring: o.subscriber_type !== 'none', taskId: o.task_id || undefined, returnPath });
      const local = checkoutPath(started.redirect_url);
      if (local) return navigate(local);
      window.location.assign(started.redirect_url);
    } catch (err) {
      setRetryError(errorMessage(err));
    } finally {
      setRetrying(false);
    }
  };
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
        <FormError error={retryError} />
        <p className="plan-links">
          {word === 'expired' && order ? (
            <button className="btn primary" type="button" disabled={retrying} onClick={() => void retry(order)}>
              {t('plans.retryCheckout')}
            </button>
          ) : word === 'succeed' && isSharePage(back) ? (
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

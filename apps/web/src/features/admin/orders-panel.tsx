/**
 * Orders (console's Plans and money): every account's, newest first, found by the buyer's address (or its start) and
 * status, a page at a time; a paid one refunded after a confirmation naming the buyer, the amount and what is taken
 * back. Refunded orders say so.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { OrderStatus } from '@haul/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { PagedList } from '../../components/paged-list';
import { useDialog } from '../../app/dialogs/dialog-store';
import { formatTime } from '../files/format-time';
import { formatPrice } from '../plans/plan-format';
import { ADMIN_KEY } from './admin-api';
import { listOrders, ordersKey, refundOrder, type AdminOrder } from './admin-money-api';
import { grantsText, ORDER_STATUS_LIST, orderStatusText } from './money-words';

function OrderCard({ o }: { o: AdminOrder }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const openDialog = useDialog((s) => s.open);
  const amount = formatPrice(o.amount, o.currency, i18n.language);
  const grants = grantsText(t, o.grants, i18n.language);
  const buyer = o.email || o.user_id;
  const refund = () =>
    openDialog({
      type: 'confirm',
      title: t('adminMoney.orders.refundTitle', { amount, email: buyer }),
      body: t('adminMoney.orders.refundBody', { amount, email: buyer, grants, title: o.title }),
      confirmLabel: t('adminMoney.orders.refund'),
      danger: true,
      onConfirm: () =>
        refundOrder(o.id).then(
          async () => {
            toast.success(t('adminMoney.orders.refunded', { amount, email: buyer }));
            await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
          },
          (err: unknown) => void toast.error(errorMessage(err)),
        ),
    });
  return (
    <li className={`money-card money-order-${o.status}`} aria-label={t('adminMoney.orders.cardLabel', { title: o.title, email: buyer })}>
      <div className="money-card-head">
        <strong>{o.title}</strong>
        <span className={`admin-badge${o.status === 'succeed' ? '' : ' off'}`}>{orderStatusText(t, o.status)}</span>
      </div>
      <dl className="money-facts">
        <dt>{t('adminMoney.orders.buyer')}</dt>
        <dd className="money-wrap">{buyer}</dd>
        <dt>{t('adminMoney.orders.amount')}</dt>
        <dd>{amount}</dd>
        <dt>{t('adminMoney.grants')}</dt>
        <dd>{grants}</dd>
        <dt>{t('adminMoney.orders.time')}</dt>
        <dd>{formatTime(o.created_time, i18n.language)}</dd>
        <dt>{t('adminMoney.orders.provider')}</dt>
        <dd>{o.provider}</dd>
        {o.subscription && (
          <>
            <dt>{t('adminMoney.orders.subscription')}</dt>
            <dd>{t('adminMoney.orders.subscriptionState', { state: o.subscription.status === 'active' ? t('adminMoney.orders.subActive') : o.subscription.status === 'canceled' ? t('adminMoney.orders.subCanceled') : t('adminMoney.orders.subEnded'), time: formatTime(o.subscription.current_period_end, i18n.language) })}</dd>
          </>
        )}
      </dl>
      {o.status === 'succeed' && (
        <div className="admin-actions">
          <button className="btn" type="button" onClick={refund}>
            {t('adminMoney.orders.refund')}
          </button>
        </div>
      )}
    </li>
  );
}

export function OrdersPanel() {
  const { t } = useTranslation();
  const headingId = useId();
  const statusId = useId();
  const [draft, setDraft] = useState('');
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<OrderStatus | ''>('');
  const search = (e: FormEvent) => {
    e.preventDefault();
    setEmail(draft.trim());
  };
  return (
    <section className="admin-card money-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('adminMoney.orders.heading')}</h2>
      <form className="money-search" role="search" aria-label={t('adminMoney.orders.searchLabel')} onSubmit={search}>
        <div className="field">
          <label htmlFor={`${statusId}-email`}>{t('adminMoney.orders.email')}</label>
          <input id={`${statusId}-email`} type="search" value={draft} autoComplete="off" onChange={(e) => setDraft(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={statusId}>{t('adminMoney.orders.statusLabel')}</label>
          <select id={statusId} value={status} onChange={(e) => setStatus(e.target.value as OrderStatus | '')}>
            <option value="">{t('adminMoney.orders.anyStatus')}</option>
            {ORDER_STATUS_LIST.map((s) => (
              <option key={s} value={s}>
                {orderStatusText(t, s)}
              </option>
            ))}
          </select>
        </div>
        <button className="btn" type="submit">
          {t('adminMoney.orders.search')}
        </button>
      </form>
      <PagedList
        queryKey={ordersKey(email, status)}
        load={(token, signal) => listOrders(email, status, token, signal)}
        items={(p) => p.orders}
        itemKey={(o) => o.id}
        empty={email || status ? t('adminMoney.orders.noneFound') : t('adminMoney.orders.none')}
        className="money-list"
        label={t('adminMoney.orders.heading')}
        moreLabel={t('adminMoney.loadMore')}
        moreClassName="money-more"
      >
        {(o) => <OrderCard o={o} />}
      </PagedList>
    </section>
  );
}

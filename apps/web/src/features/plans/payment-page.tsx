/**
 * The goods on sale (/payment, /payment/storage, /payment/traffic): the operator's premium, storage and transfer
 * products with their prices, and Pay. A checkout on this site (the sandbox) opens in the app, so uploads waiting on a
 * limit live on; another site's (Stripe) opens in a new tab while this one follows the order's status.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate, useSearchParams } from 'react-router';
import type { GrantKind, Product } from '@haul/shared';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { errorMessage } from '../../lib/error-message';
import { checkoutPath } from './checkout-path';
import { describeGrant, formatPrice } from './plan-format';
import { PlanCompare } from './plan-compare';
import { listGoods, paySettings, startPayment, subscriptionStatus } from './plans-api';
import './plans.css';
import { useRedeemBox } from './redeem-box';

const PAGES: { kind: GrantKind; path: string; label: string }[] = [
  { kind: 'premium', path: '/payment', label: 'plans.tabPremium' },
  { kind: 'storage', path: '/payment/storage', label: 'plans.tabStorage' },
  { kind: 'transfer', path: '/payment/traffic', label: 'plans.tabTransfer' },
];

function ProductCard({ product, onPay, busy, subscribed }: { product: Product; onPay: () => void; busy: boolean; subscribed: boolean }) {
  const { t, i18n } = useTranslation();
  const every = product.subscriber_type === 'none' ? '' : t(product.subscriber_type === 'month' ? 'plans.perMonth' : 'plans.perYear');
  return (
    <li className="plan-card">
      <h2 className="plan-title">{product.title}</h2>
      <p className="plan-price">
        {formatPrice(product.price, product.currency, i18n.language)}
        {every && <span className="muted"> {every}</span>}
      </p>
      <ul className="plan-grants">
        {product.grants.map((g, i) => (
          <li key={i}>{describeGrant(g, t, i18n.language)}</li>
        ))}
      </ul>
      {product.subscription_mode === 'recurring' && <p className="muted small">{t('plans.renews')}</p>}
      {/* One subscription per kind of goods renews at a time: the server refuses a second. */}
      {subscribed ? (
        <Link className="btn" to="/payment/management">
          {t('plans.subscribedManage')}
        </Link>
      ) : (
        <button className="btn primary" type="button" onClick={onPay} disabled={busy} aria-label={t('plans.payFor', { title: product.title })}>
          {product.subscription_mode === 'recurring' ? t('plans.subscribe') : t('plans.pay')}
        </button>
      )}
    </li>
  );
}

export function PaymentPage({ kind }: { kind: GrantKind }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redeem = useRedeemBox();
  const goods = useQuery({ queryKey: ['goods', kind], queryFn: () => listGoods(kind) });
  const settings = useQuery({ queryKey: ['pay-settings'], queryFn: paySettings, staleTime: 60_000 });
  const renewing = useQuery({ queryKey: ['subscription-status'], queryFn: subscriptionStatus });
  const subscribedHere = renewing.data?.find((s) => s.kind === kind)?.subscribed ?? false;
  const providers = settings.data?.providers ?? [];
  const [provider, setProvider] = useState('');
  const chosen = providers.find((p) => p.id === provider) ?? providers[0];
  const { busy, error, setError, submit } = useSubmit();

  const pay = async (product: Product) => {
    if (!chosen) return;
    const recurring = product.subscription_mode === 'recurring';
    if (recurring && !chosen.recurring) return setError(t('plans.noSubscriptions', { provider: chosen.name }));
    // Opened now, in the click, so no pop-up blocker stops it; pointed at the checkout once the order exists.
    const away = chosen.sandbox ? null : window.open('', '_blank');
    await submit(
      async () => {
        const returnPath = params.get('return') ?? undefined;
        const started = await startPayment({ provider: chosen.id, productId: product.id, recurring, taskId: params.get('task_id') ?? undefined, returnPath });
        const local = checkoutPath(started.redirect_url);
        if (local && !away) return void navigate(local);
        if (away) away.location.href = started.redirect_url;
        else window.location.assign(started.redirect_url);
        void navigate(`/payment/status/${started.order_id}${returnPath ? `?return=${encodeURIComponent(returnPath)}` : ''}`);
      },
      (err) => {
        away?.close();
        return errorMessage(err);
      },
    );
  };

  const products = goods.data?.products ?? [];
  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('plans.title')}</h1>
      </div>
      <nav className="tabs plan-tabs" aria-label={t('plans.title')}>
        {PAGES.map((p) => (
          <NavLink key={p.kind} to={{ pathname: p.path, search: params.toString() }} end className={({ isActive }) => `tab${isActive ? ' on' : ''}`}>
            {t(p.label)}
          </NavLink>
        ))}
      </nav>
      <div className="plans-body">
        {goods.isPending && <p className="muted">{t('common.loading')}</p>}
        {goods.isError && <FormError error={errorMessage(goods.error)} />}
        {settings.isSuccess && providers.length === 0 && <p className="account-notice">{t('plans.noProviders')}</p>}
        {providers.length > 1 && (
          <label className="field plan-provider">
            <span>{t('plans.payWith')}</span>
            <select value={chosen?.id} onChange={(e) => setProvider(e.target.value)}>
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {providers.length === 1 && chosen?.sandbox && <p className="account-notice">{t('plans.sandboxNotice')}</p>}
        {kind === 'premium' && <PlanCompare />}
        {goods.isSuccess && products.length === 0 && <p className="muted">{t('plans.nothingOnSale')}</p>}
        <FormError error={error} />
        {providers.length > 0 && (
          <ul className="plan-grid">
            {products.map((p) => (
              <ProductCard key={p.id} product={p} busy={busy} subscribed={subscribedHere && p.subscription_mode === 'recurring'} onPay={() => void pay(p)} />
            ))}
          </ul>
        )}
        <p className="plan-links">
          <button className="link" type="button" onClick={redeem.open}>
            {t('plans.haveCode')}
          </button>
          <Link className="link" to="/payment/management">
            {t('plans.manage')}
          </Link>
        </p>
      </div>
    </section>
  );
}

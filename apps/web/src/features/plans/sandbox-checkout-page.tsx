/**
 * The sandbox provider's checkout (/payment/sandbox/:orderId): the operator turned on trying plans without money.
 * Pay, decline or cancel is the provider's decision; the status page then follows the order like any other.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { errorMessage } from '../../lib/error-message';
import { formatPrice } from './plan-format';
import { sandboxOrder, sandboxPay } from './plans-api';
import './plans.css';

export function SandboxCheckoutPage() {
  const { t, i18n } = useTranslation();
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const order = useQuery({ queryKey: ['sandbox-order', orderId], queryFn: () => sandboxOrder(orderId) });
  const { busy, error, submit } = useSubmit();
  const decide = (outcome: 'pay' | 'decline' | 'cancel') =>
    submit(async () => {
      await sandboxPay(orderId, outcome);
      const back = params.get('return');
      void navigate(`/payment/status/${orderId}${back ? `?return=${encodeURIComponent(back)}` : ''}`, { replace: true });
    }, errorMessage);
  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('plans.sandboxTitle')}</h1>
      </div>
      <div className="account-form sandbox-checkout">
        <p className="account-notice">{t('plans.sandboxNotice')}</p>
        {order.isError && <FormError error={errorMessage(order.error)} />}
        {order.data && (
          <>
            <p>
              <strong>{order.data.title}</strong>
            </p>
            <p className="plan-price">{formatPrice(order.data.price, order.data.currency, i18n.language)}</p>
            <FormError error={error} />
            <div className="dialog-actions">
              <button className="btn" type="button" disabled={busy} onClick={() => void decide('cancel')}>
                {t('plans.sandboxCancel')}
              </button>
              <button className="btn" type="button" disabled={busy} onClick={() => void decide('decline')}>
                {t('plans.sandboxDecline')}
              </button>
              <button className="btn primary" type="button" disabled={busy} onClick={() => void decide('pay')}>
                {t('plans.sandboxPay')}
              </button>
            </div>
          </>
        )}
      </div>
    </section>
  );
}

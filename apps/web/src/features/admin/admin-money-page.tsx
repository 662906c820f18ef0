/**
 * Plans and money (/admin/plans): the goods on sale and off, every order with its refund, redeem codes made and
 * revoked, and the invitations with their rewards: what haul-admin plans, orders, refund and codes do from a shell.
 */
import { useTranslation } from 'react-i18next';
import { CodesPanel } from './codes-panel';
import { InvitationsPanel } from './invitations-panel';
import { OrdersPanel } from './orders-panel';
import { ProductsPanel } from './products-panel';
import './money.css';

export function AdminMoneyPage() {
  const { t } = useTranslation();
  return (
    <section className="page admin-page">
      <div className="toolbar">
        <h1 className="crumb current">{t('adminMoney.title')}</h1>
      </div>
      <div className="money-page">
        <ProductsPanel />
        <OrdersPanel />
        <CodesPanel />
        <InvitationsPanel />
      </div>
    </section>
  );
}

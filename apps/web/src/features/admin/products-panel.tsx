/**
 * The goods (console's Plans and money): every product, on sale or not, with what it grants in words, its price and
 * how often it renews; taking one off sale (confirmed) and putting it back; adding a product, checked before it is
 * sent with the rules the server applies.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { GrantSpecError, parseGrantSpec } from '@haul/shared/plain';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { useDialog } from '../../app/dialogs/dialog-store';
import { formatPrice } from '../plans/plan-format';
import { ADMIN_KEY } from './admin-api';
import { listProducts, PRODUCTS_KEY, retireProduct, saveProduct, type AdminProduct, type ProductInput } from './admin-money-api';
import { grantsText, intervalText } from './money-words';

type Fields = Omit<ProductInput, 'position'>;
type FieldErrors = Partial<Record<keyof Fields, string>>;

/** The checks the catalogue makes (plans/catalog.ts), so a mistake is named at its field before anything is sent. */
export function productErrors(p: Fields, t: TFunction): FieldErrors {
  const e: FieldErrors = {};
  if (!/^[a-z0-9][a-z0-9-]{0,47}$/.test(p.id)) e.id = t('adminMoney.products.badId');
  if (!p.title.trim() || p.title.trim().length > 80) e.title = t('adminMoney.products.badTitle');
  try {
    parseGrantSpec(p.grant);
  } catch (err) {
    if (!(err instanceof GrantSpecError)) throw err;
    e.grant = t('adminMoney.badGrant');
  }
  if (!/^[A-Z]{3}$/.test(p.currency)) e.currency = t('adminMoney.products.badCurrency');
  if (!/^\d{1,9}(\.\d{1,3})?$/.test(p.price.trim()) || Number(p.price) <= 0) e.price = t('adminMoney.products.badPrice');
  return e;
}

function AddProduct({ currency, onDone }: { currency: string; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const intervalId = useId();
  const [p, setP] = useState<Fields>({ id: '', title: '', grant: 'premium:30d', price: '', currency, interval: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const { busy, error, submit } = useSubmit();
  const set = (change: Partial<Fields>) => {
    setP({ ...p, ...change });
    setFieldErrors({});
  };
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const input = { ...p, id: p.id.trim(), title: p.title.trim(), grant: p.grant.trim(), price: p.price.trim() };
    const errors = productErrors(input, t);
    setFieldErrors(errors);
    if (Object.keys(errors).length) return;
    await submit(async () => {
      const saved = await saveProduct(input);
      toast.success(t('adminMoney.products.added', { title: saved.title }));
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
      onDone();
    }, errorMessage);
  };
  return (
    <form className="money-form" aria-label={t('adminMoney.products.add')} onSubmit={send} noValidate>
      <TextField label={t('adminMoney.products.id')} hint={t('adminMoney.products.idHint')} value={p.id} error={fieldErrors.id} autoComplete="off" maxLength={48} onChange={(e) => set({ id: e.target.value })} />
      <TextField label={t('adminMoney.products.titleLabel')} value={p.title} error={fieldErrors.title} autoComplete="off" maxLength={80} onChange={(e) => set({ title: e.target.value })} />
      <TextField label={t('adminMoney.grantLabel')} hint={t('adminMoney.grantHint')} value={p.grant} error={fieldErrors.grant} autoComplete="off" onChange={(e) => set({ grant: e.target.value })} />
      <div className="money-form-row">
        <TextField label={t('adminMoney.products.price')} value={p.price} error={fieldErrors.price} inputMode="decimal" autoComplete="off" onChange={(e) => set({ price: e.target.value })} />
        <TextField label={t('adminMoney.products.currency')} value={p.currency} error={fieldErrors.currency} maxLength={3} autoComplete="off" onChange={(e) => set({ currency: e.target.value.toUpperCase() })} />
        <div className="field">
          <label htmlFor={intervalId}>{t('adminMoney.products.interval')}</label>
          <select id={intervalId} value={p.interval} onChange={(e) => set({ interval: e.target.value as Fields['interval'] })}>
            <option value="">{t('adminMoney.products.once')}</option>
            <option value="month">{t('adminMoney.products.monthly')}</option>
            <option value="year">{t('adminMoney.products.yearly')}</option>
          </select>
        </div>
      </div>
      <FormError error={error} />
      <div className="admin-actions">
        <button className="btn primary" type="submit" disabled={busy}>
          {t('adminMoney.products.save')}
        </button>
        <button className="btn" type="button" disabled={busy} onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function ProductCard({ p }: { p: AdminProduct }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const openDialog = useDialog((s) => s.open);
  const { busy, error, submit } = useSubmit();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
  const takeOff = () =>
    openDialog({
      type: 'confirm',
      title: t('adminMoney.products.retireTitle', { title: p.title }),
      body: t('adminMoney.products.retireBody', { title: p.title }),
      confirmLabel: t('adminMoney.products.retire'),
      danger: true,
      onConfirm: () =>
        retireProduct(p.id).then(
          async () => {
            toast.success(t('adminMoney.products.retired', { title: p.title }));
            await refresh();
          },
          (err: unknown) => void toast.error(errorMessage(err)),
        ),
    });
  const putBack = () =>
    void submit(async () => {
      await saveProduct({ id: p.id, title: p.title, grant: p.grant, price: p.price, currency: p.currency, interval: p.interval, position: p.position });
      toast.success(t('adminMoney.products.backOnSale', { title: p.title }));
      await refresh();
    }, errorMessage);
  return (
    <li className={`money-card${p.on_sale ? '' : ' off'}`} aria-label={p.title}>
      <div className="money-card-head">
        <strong>{p.title}</strong>
        <span className={`admin-badge${p.on_sale ? '' : ' off'}`}>{p.on_sale ? t('adminMoney.products.onSale') : t('adminMoney.products.offSale')}</span>
      </div>
      <dl className="money-facts">
        <dt>{t('adminMoney.grants')}</dt>
        <dd>{grantsText(t, p.grants, i18n.language)}</dd>
        <dt>{t('adminMoney.products.price')}</dt>
        <dd>
          {formatPrice(p.price, p.currency, i18n.language)} · {intervalText(t, p.interval)}
        </dd>
        <dt>{t('adminMoney.products.id')}</dt>
        <dd className="money-mono">{p.id}</dd>
      </dl>
      <div className="admin-actions">
        {p.on_sale ? (
          <button className="btn" type="button" onClick={takeOff}>
            {t('adminMoney.products.retire')}
          </button>
        ) : (
          <button className="btn" type="button" disabled={busy} onClick={putBack}>
            {t('adminMoney.products.putBack')}
          </button>
        )}
      </div>
      <FormError error={error} />
    </li>
  );
}

export function ProductsPanel() {
  const { t } = useTranslation();
  const headingId = useId();
  const [adding, setAdding] = useState(false);
  const products = useQuery({ queryKey: PRODUCTS_KEY, queryFn: ({ signal }) => listProducts(signal), meta: { quiet: true } });
  const rows = products.data?.products ?? [];
  return (
    <section className="admin-card money-panel" aria-labelledby={headingId}>
      <div className="money-panel-head">
        <h2 id={headingId}>{t('adminMoney.products.heading')}</h2>
        {!adding && (
          <button className="btn primary" type="button" onClick={() => setAdding(true)}>
            {t('adminMoney.products.add')}
          </button>
        )}
      </div>
      {adding && <AddProduct currency={rows[0]?.currency ?? 'USD'} onDone={() => setAdding(false)} />}
      {products.isPending ? (
        <p className="muted">{t('common.loading')}</p>
      ) : products.isError ? (
        <FormError error={errorMessage(products.error)} />
      ) : rows.length === 0 ? (
        <p className="muted">{t('adminMoney.products.none')}</p>
      ) : (
        <ul className="money-list" aria-label={t('adminMoney.products.heading')}>
          {rows.map((p) => (
            <ProductCard key={p.id} p={p} />
          ))}
        </ul>
      )}
    </section>
  );
}

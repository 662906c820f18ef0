/**
 * Granting an account a plan from its page: a kind (premium days, storage or transfer in GB, each for how many days),
 * written as the spec products and codes use (shown as it will be sent), then the account's live grants.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { GrantSpecError, parseGrantSpec, type GrantKind } from '@haul/shared/plain';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { formatTime } from '../files/format-time';
import { ADMIN_KEY, type AdminUser } from './admin-api';
import { getGrants, grantPlan, grantsKey } from './admin-accounts-api';
import { sizeText } from './storage-size';
import './admin-accounts.css';

/** The spec the fields make: premium:30d, storage:100GB (for good, or /365d), transfer:50GB/30d. */
export function grantSpec(kind: GrantKind, amount: string, days: string): string {
  const n = amount.trim();
  const d = days.trim();
  if (kind === 'premium') return `premium:${n}d`;
  return `${kind}:${n}GB${d ? `/${d}d` : ''}`;
}

function LiveGrants({ userId }: { userId: string }) {
  const { t, i18n } = useTranslation();
  const grants = useQuery({ queryKey: grantsKey(userId), queryFn: ({ signal }) => getGrants(userId, signal), meta: { quiet: true } });
  if (grants.isPending) return <p className="muted">{t('common.loading')}</p>;
  if (grants.isError) return <FormError error={errorMessage(grants.error)} />;
  const { grants: rows, premium, expire } = grants.data;
  const kindWord = (k: GrantKind) => (k === 'premium' ? t('adminAccounts.grant.premium') : k === 'storage' ? t('adminAccounts.grant.storage') : t('adminAccounts.grant.transfer'));
  return (
    <>
      <p className="admin-note">{premium ? t('adminAccounts.grant.premiumUntil', { time: formatTime(expire, i18n.language) }) : t('adminAccounts.grant.noPremium')}</p>
      {rows.length === 0 ? (
        <p className="muted">{t('adminAccounts.grant.none')}</p>
      ) : (
        <ul className="admin-grants" aria-label={t('adminAccounts.grant.live')}>
          {rows.map((g) => (
            <li key={`${g.kind}-${g.starts_at}-${g.ends_at}-${g.bytes}`} data-kind={g.kind}>
              <strong>{kindWord(g.kind)}</strong>
              {g.kind !== 'premium' && ` ${sizeText(Number(g.bytes), i18n.language)}`}
              {' · '}
              {g.ends_at
                ? t('adminAccounts.grant.until', { time: formatTime(g.ends_at, i18n.language) })
                : t('adminAccounts.grant.forGood')}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function GrantForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const kindId = useId();
  const [kind, setKind] = useState<GrantKind>('premium');
  const [amount, setAmount] = useState('30');
  const [days, setDays] = useState('');
  const { busy, error, setError, submit } = useSubmit();
  const spec = grantSpec(kind, amount, days);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      parseGrantSpec(spec);
    } catch (err) {
      if (err instanceof GrantSpecError) return setError(kind === 'premium' ? t('adminAccounts.grant.badDays') : t('adminAccounts.grant.badSize'));
      throw err;
    }
    await submit(
      async () => {
        const now = await grantPlan(user.id, spec);
        queryClient.setQueryData(grantsKey(user.id), now);
        void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
        toast.success(t('adminAccounts.grant.done', { email: user.email, spec }));
      },
      (err) => errorMessage(err),
    );
  };

  return (
    <>
      <form className="admin-grant" onSubmit={save} noValidate>
        <div className="field">
          <label htmlFor={kindId}>{t('adminAccounts.grant.kind')}</label>
          <select
            id={kindId}
            value={kind}
            onChange={(e) => {
              const k = e.target.value as GrantKind;
              setKind(k);
              setAmount(k === 'premium' ? '30' : k === 'storage' ? '100' : '50');
              setDays(k === 'transfer' ? '30' : '');
              setError('');
            }}
          >
            <option value="premium">{t('adminAccounts.grant.premium')}</option>
            <option value="storage">{t('adminAccounts.grant.storage')}</option>
            <option value="transfer">{t('adminAccounts.grant.transfer')}</option>
          </select>
        </div>
        <TextField
          label={kind === 'premium' ? t('adminAccounts.grant.days') : t('adminAccounts.grant.gb')}
          value={amount}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => {
            setAmount(e.target.value);
            setError('');
          }}
        />
        {kind !== 'premium' && (
          <TextField
            label={t('adminAccounts.grant.lasts')}
            hint={kind === 'storage' ? t('adminAccounts.grant.lastsStorageHint') : t('adminAccounts.grant.lastsTransferHint')}
            value={days}
            inputMode="numeric"
            autoComplete="off"
            onChange={(e) => {
              setDays(e.target.value);
              setError('');
            }}
          />
        )}
        <p className="muted admin-grant-spec">{t('adminAccounts.grant.spec', { spec })}</p>
        <FormError error={error} />
        <button className="btn primary" type="submit" disabled={busy}>
          {t('adminAccounts.grant.submit')}
        </button>
      </form>
      <LiveGrants userId={user.id} />
    </>
  );
}

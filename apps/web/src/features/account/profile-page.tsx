/**
 * The profile (/account/basic, the account area's first page): the name (edited in place), the avatar (picked in a
 * dialog from the built-in ones), and what each other page manages, each with the way to it: the e-mail address,
 * the phone number, the plan, the connected sign-in providers.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { displayNameProblem, DISPLAY_NAME_MAX_LENGTH } from '@haul/shared/plain';
import type { UserInfo } from '@haul/shared';
import { displayPhoneNumber } from '@haul/shared/phone-numbers';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { getMe } from '../auth/auth-api';
import { AvatarPicker } from './avatar-picker';
import { updateProfile } from './profile-api';
import { UserAvatar } from './user-avatar';

function Row({ label, value, action }: { label: string; value: ReactNode; action?: ReactNode }) {
  return (
    <li className="provider-row">
      <div>
        <div className="account-notice profile-label">{label}</div>
        <div className="profile-value">{value}</div>
      </div>
      {action}
    </li>
  );
}

export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const [name, setName] = useState<string | null>(null);
  const [nameError, setNameError] = useState('');
  const [picking, setPicking] = useState(false);
  const { busy, submit } = useSubmit();
  if (!me) return <section className="page" aria-busy="true" />;

  /** Answers whether the change was saved. */
  const save = (change: { name?: string; picture?: string }, onRefused: (message: string) => void): Promise<boolean> =>
    submit(
      async () => {
        queryClient.setQueryData<UserInfo>(['me'], await updateProfile(change));
        toast.success(t('profile.saved'));
      },
      (err) => {
        // The name's refusals are said at the field; anything else (a network failure) in a toast.
        if (isApiError(err, 'invalid_argument')) onRefused(errorMessage(err));
        else toast.error(errorMessage(err));
      },
    );

  const saveName = async (e: FormEvent) => {
    e.preventDefault();
    const typed = (name ?? '').trim();
    const problem = displayNameProblem(typed);
    if (problem) return setNameError(t(`profile.name_${problem}`, { max: DISPLAY_NAME_MAX_LENGTH }));
    if (await save({ name: typed }, setNameError)) setName(null);
  };

  const nameRow =
    name === null ? (
      <Row
        label={t('profile.name')}
        value={me.name}
        action={
          <button type="button" className="btn" onClick={() => (setName(me.name), setNameError(''))} aria-label={t('profile.editName')}>
            {t('profile.edit')}
          </button>
        }
      />
    ) : (
      <li className="provider-row">
        <form className="profile-name-form" onSubmit={saveName} noValidate>
          <TextField label={t('profile.name')} value={name} onChange={(e) => (setName(e.target.value), setNameError(''))} error={nameError} maxLength={DISPLAY_NAME_MAX_LENGTH * 2} autoComplete="nickname" autoFocus />
          <div className="dialog-actions start">
            <button type="button" className="btn" onClick={() => setName(null)}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="btn primary" disabled={busy}>
              {t('common.save')}
            </button>
          </div>
        </form>
      </li>
    );

  const until = me.premium && me.expire ? new Date(me.expire).toLocaleDateString(i18n.language, { dateStyle: 'long' }) : '';
  const go = (to: string, text: string, label: string) => (
    <Link className="btn" to={to} aria-label={label}>
      {text}
    </Link>
  );
  return (
    <section className="page">
      <div className="toolbar">
        <h1 id="profile-title" className="crumb current">
          {t('profile.title')}
        </h1>
      </div>
      <div className="account-form">
        <ul className="provider-list" aria-labelledby="profile-title">
          <Row
            label={t('profile.avatar')}
            value={<UserAvatar user={me} size={48} />}
            action={
              <button type="button" className="btn" onClick={() => setPicking(true)}>
                {t('profile.changeAvatar')}
              </button>
            }
          />
          {nameRow}
          <Row label={t('auth.email')} value={me.email} action={go('/account/bind-email', t('profile.change'), t('account.changeEmail'))} />
          <Row
            label={t('profile.phone')}
            value={me.phone_number ? displayPhoneNumber(me.phone_number) : <span className="account-notice">{t('profile.notSet')}</span>}
            action={go('/account/bind-phone', me.phone_number ? t('profile.change') : t('profile.add'), me.phone_number ? t('phone.change') : t('phone.add'))}
          />
          <Row label={t('profile.plan')} value={me.premium ? (until ? t('profile.premiumUntil', { date: until }) : t('profile.premium')) : t('profile.free')} />
          <Row
            label={t('profile.providers')}
            value={me.providers.length ? me.providers.map((p) => p.name).join(', ') : <span className="account-notice">{t('profile.noProviders')}</span>}
            action={go('/account/providers', t('profile.manage'), t('providers.pageTitle'))}
          />
        </ul>
      </div>
      {picking && <AvatarPicker current={me.picture} busy={busy} onClose={() => setPicking(false)} onPick={(id) => void save({ picture: id }, (m) => toast.error(m)).then((ok) => ok && setPicking(false))} />}
    </section>
  );
}

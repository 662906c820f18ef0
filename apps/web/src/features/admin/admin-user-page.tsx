/**
 * One account (/admin/users/:userId): who it is, what it uses (storage, files, shares, running tasks, devices, this
 * month's transfer), its storage limit, and the operator's actions: make or remove an operator, disable or enable,
 * sign out everywhere; grant a plan, mail a password-reset code, delete (grant-form, account-danger). The operator's
 * own account offers none that would lock them out (the server refuses them too).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useDialog } from '../../app/dialogs/dialog-store';
import { formatTime } from '../files/format-time';
import { getUser, userKey, type AdminUser } from './admin-api';
import { useAccountChange } from './account-change';
import { useMe } from './admin-layout';
import { StorageLimitForm } from './storage-limit-form';
import { GrantForm } from './grant-form';
import { AccountDanger } from './account-danger';
import { sizeText } from './storage-size';

/** The role and state badges of an account. */
function UserBadges({ user, self }: { user: AdminUser; self: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="admin-badges">
      {user.is_admin && <span className="admin-badge">{t('admin.role.operator')}</span>}
      {user.disabled && <span className="admin-badge off">{t('admin.status.disabled')}</span>}
      {self && <span className="admin-badge">{t('admin.user.you')}</span>}
    </span>
  );
}

/** The actions, each confirmed first; the result shows at once, a failure in a toast in words. */
function UserActions({ user, self }: { user: AdminUser; self: boolean }) {
  const { t } = useTranslation();
  const openDialog = useDialog((s) => s.open);
  const { change, signOut } = useAccountChange(user.id);
  const email = user.email;
  const confirm = (o: { title: string; body: string; label: string; danger?: boolean; done: string; work: () => Promise<unknown> }) =>
    openDialog({
      type: 'confirm',
      title: o.title,
      body: o.body,
      confirmLabel: o.label,
      danger: o.danger,
      onConfirm: () =>
        o.work().then(
          () => void toast.success(o.done),
          (err: unknown) => void toast.error(errorMessage(err)),
        ),
    });

  const role = user.is_admin
    ? {
        title: t('admin.user.removeOperatorTitle', { email }),
        body: t('admin.user.removeOperatorBody'),
        label: t('admin.user.removeOperator'),
        done: t('admin.user.removedOperator', { email }),
      }
    : {
        title: t('admin.user.makeOperatorTitle', { email }),
        body: t('admin.user.makeOperatorBody'),
        label: t('admin.user.makeOperator'),
        done: t('admin.user.madeOperator', { email }),
      };
  const state = user.disabled
    ? {
        title: t('admin.user.enableTitle', { email }),
        body: t('admin.user.enableBody'),
        label: t('admin.user.enable'),
        done: t('admin.user.enabled', { email }),
      }
    : {
        title: t('admin.user.disableTitle', { email }),
        body: t('admin.user.disableBody'),
        label: t('admin.user.disable'),
        done: t('admin.user.disabled', { email }),
        danger: true,
      };

  if (self) return <p className="account-notice">{t('admin.user.ownAccount')}</p>;
  return (
    <div className="admin-actions">
      <button className="btn" type="button" onClick={() => confirm({ ...role, work: () => change({ is_admin: !user.is_admin }) })}>
        {role.label}
      </button>
      <button
        className={`btn${user.disabled ? '' : ' danger'}`}
        type="button"
        onClick={() => confirm({ ...state, work: () => change({ disabled: !user.disabled }) })}
      >
        {state.label}
      </button>
      <button
        className="btn danger"
        type="button"
        onClick={() =>
          confirm({
            title: t('admin.user.signOutTitle', { email }),
            body: t('admin.user.signOutBody'),
            label: t('admin.user.signOut'),
            done: t('admin.user.signedOut', { email }),
            danger: true,
            work: signOut,
          })
        }
      >
        {t('admin.user.signOut')}
      </button>
    </div>
  );
}

export function AdminUserPage() {
  const { t, i18n } = useTranslation();
  const { userId = '' } = useParams();
  const me = useMe();
  const detail = useQuery({ queryKey: userKey(userId), queryFn: ({ signal }) => getUser(userId, signal), meta: { quiet: true } });
  const size = (bytes: string) => sizeText(Number(bytes), i18n.language);
  const back = (
    <Link className="link" to="/admin">
      {t('admin.user.back')}
    </Link>
  );
  if (detail.isPending) {
    return (
      <section className="page admin-page">
        <p className="admin-back">{back}</p>
        <p className="muted">{t('common.loading')}</p>
      </section>
    );
  }
  if (detail.isError) {
    return (
      <section className="page admin-page">
        <p className="admin-back">{back}</p>
        <FormError error={errorMessage(detail.error)} />
      </section>
    );
  }
  const { user, usage } = detail.data;
  const self = me.data?.sub === user.id;
  const count = (n: string) => Number(n).toLocaleString(i18n.language);
  return (
    <section className="page admin-page">
      <p className="admin-back">{back}</p>
      <div className="toolbar admin-user-head">
        <h1 className="crumb current admin-user-email">{user.email}</h1>
        <UserBadges user={user} self={self} />
      </div>
      <div className="admin-user-grid">
        <section className="admin-card" aria-labelledby="admin-usage-title">
          <h2 id="admin-usage-title">{t('admin.user.usage')}</h2>
          <dl className="admin-facts">
            <dt>{t('admin.users.storage')}</dt>
            <dd>{t('admin.storageOf', { used: size(user.storage_usage), limit: size(user.storage_limit) })}</dd>
            <dt>{t('admin.user.files')}</dt>
            <dd>{count(usage.files)}</dd>
            <dt>{t('admin.user.shares')}</dt>
            <dd>{count(usage.shares)}</dd>
            <dt>{t('admin.user.tasks')}</dt>
            <dd>{count(usage.tasks_running)}</dd>
            <dt>{t('admin.user.devices')}</dt>
            <dd>{count(usage.sessions)}</dd>
            <dt>{t('admin.user.upload')}</dt>
            <dd>{size(usage.transfer_month.upload)}</dd>
            <dt>{t('admin.user.cloudDownload')}</dt>
            <dd>{size(usage.transfer_month.cloud_download)}</dd>
            <dt>{t('admin.user.download')}</dt>
            <dd>{size(usage.transfer_month.download)}</dd>
          </dl>
        </section>
        <section className="admin-card" aria-labelledby="admin-account-title">
          <h2 id="admin-account-title">{t('admin.user.account')}</h2>
          <dl className="admin-facts">
            <dt>{t('admin.users.name')}</dt>
            <dd>{user.name || '—'}</dd>
            <dt>{t('admin.user.phone')}</dt>
            <dd>{user.phone_number || '—'}</dd>
            <dt>{t('admin.users.role')}</dt>
            <dd>{user.is_admin ? t('admin.role.operator') : t('admin.role.member')}</dd>
            <dt>{t('admin.users.status')}</dt>
            <dd>{user.disabled ? t('admin.status.disabled') : t('admin.status.active')}</dd>
            <dt>{t('admin.users.created')}</dt>
            <dd>{formatTime(user.created_time, i18n.language)}</dd>
            <dt>{t('admin.user.premium')}</dt>
            <dd>{user.premium_expire_time ? formatTime(user.premium_expire_time, i18n.language) : t('admin.user.noPremium')}</dd>
          </dl>
          <p>
            <Link className="link" to={`/admin/audit?user_id=${encodeURIComponent(user.id)}`}>
              {t('admin.user.auditLink')}
            </Link>
          </p>
        </section>
        <section className="admin-card" aria-labelledby="admin-limit-title">
          <h2 id="admin-limit-title">{t('admin.limit.title')}</h2>
          <StorageLimitForm key={user.storage_limit} user={user} />
        </section>
        <section className="admin-card" aria-labelledby="admin-actions-title">
          <h2 id="admin-actions-title">{t('admin.user.actions')}</h2>
          <UserActions user={user} self={self} />
        </section>
        <section className="admin-card" aria-labelledby="admin-grant-title">
          <h2 id="admin-grant-title">{t('adminAccounts.grant.title')}</h2>
          <GrantForm user={user} />
        </section>
        <section className="admin-card" aria-labelledby="admin-danger-title">
          <h2 id="admin-danger-title">{t('adminAccounts.danger')}</h2>
          <AccountDanger user={user} usage={usage} self={self} />
        </section>
      </div>
    </section>
  );
}

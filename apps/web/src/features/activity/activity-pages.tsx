/**
 * The activity area (seed route `activity`): /activity/invitation (the invite link) and /activity/invited (who joined
 * with it, rewarded or not and why). Sign-in is needed: the link is the account's own.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router';
import type { Invited } from '@haul/shared';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { formatTime } from '../files/format-time';
import { INVITE_KEY, inviteInfo } from './activity-api';
import { InviteLinkPanel } from './invite-link-panel';
import './activity.css';

export function ActivityLayout() {
  const { t } = useTranslation();
  return (
    <>
      <nav className="account-nav" aria-label={t('activity.area')}>
        <NavLink to="/activity/invitation">{t('activity.inviteTitle')}</NavLink>
        <NavLink to="/activity/invited">{t('activity.invitedTitle')}</NavLink>
      </nav>
      <Outlet />
    </>
  );
}

export function InvitationPage() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('activity.inviteTitle')}</h1>
      </div>
      <div className="account-form">
        <InviteLinkPanel />
        <p>
          <Link className="link" to="/activity/invited">
            {t('activity.seeInvited')}
          </Link>
        </p>
      </div>
    </section>
  );
}

/** The words for how an invitation turned out. */
function Outcome({ row }: { row: Invited }) {
  const { t } = useTranslation();
  if (row.rewarded) return <>{t('activity.rewarded', { count: row.reward_days })}</>;
  return <>{t(`activity.reason.${row.reason || 'rewards_off'}`)}</>;
}

export function InvitedPage() {
  const { t, i18n } = useTranslation();
  const info = useQuery({ queryKey: INVITE_KEY, queryFn: inviteInfo });
  const rows = info.data?.invited ?? [];
  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('activity.invitedTitle')}</h1>
      </div>
      <div className="account-form">
        {info.error && <FormError error={errorMessage(info.error)} />}
        {info.data && (
          <p className="muted">{t('activity.totals', { invited: info.data.total_invited, rewarded: info.data.total_rewarded, days: info.data.days_earned })}</p>
        )}
        {info.data && !rows.length && (
          <p>
            {t('activity.nobodyYet')}{' '}
            <Link className="link" to="/activity/invitation">
              {t('activity.shareLink')}
            </Link>
          </p>
        )}
        {rows.length > 0 && (
          <table className="invited-table">
            <thead>
              <tr>
                <th scope="col">{t('activity.who')}</th>
                <th scope="col">{t('activity.joined')}</th>
                <th scope="col">{t('activity.reward')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={`${r.joined_at}-${i}`} data-rewarded={r.rewarded}>
                  <td>
                    {r.name}
                    {r.account_deleted && <small className="muted"> {t('activity.deleted')}</small>}
                  </td>
                  <td>{formatTime(r.joined_at, i18n.language)}</td>
                  <td>
                    <Outcome row={r} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

/**
 * Invitations (console's Plans and money): every sign-up made with a code, newest first, a page at a time: who invited
 * whom, when, and the premium days each side got or why none; the totals above. A deleted account is named as such.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedList } from '../../components/paged-list';
import { formatTime } from '../files/format-time';
import { INVITATIONS_KEY, listInvitations, type AdminInvitation } from './admin-money-api';

function InvitationCard({ i }: { i: AdminInvitation }) {
  const { t, i18n } = useTranslation();
  const inviter = i.inviter?.email ?? t('adminInvites.deleted');
  const invitee = i.invitee?.email ?? `${i.invitee_label} ${t('adminInvites.deleted')}`;
  return (
    <li className="money-card" aria-label={t('adminInvites.cardLabel', { inviter, invitee })}>
      <div className="money-card-head">
        <strong className="money-wrap">{invitee}</strong>
        <span className={`admin-badge${i.rewarded ? '' : ' off'}`}>{i.rewarded ? t('adminInvites.rewarded') : t('adminInvites.notRewarded')}</span>
      </div>
      <dl className="money-facts">
        <dt>{t('adminInvites.invitedBy')}</dt>
        <dd className="money-wrap">{inviter}</dd>
        <dt>{t('adminInvites.joined')}</dt>
        <dd>{formatTime(i.created_time, i18n.language)}</dd>
        <dt>{t('adminInvites.reward')}</dt>
        <dd>{i.rewarded ? t('adminInvites.days', { count: i.reward_days }) : t(`adminInvites.reason.${i.reason || 'rewards_off'}`)}</dd>
      </dl>
    </li>
  );
}

export function InvitationsPanel() {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section className="admin-card money-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('adminInvites.heading')}</h2>
      <PagedList
        queryKey={INVITATIONS_KEY}
        load={(token, signal) => listInvitations(token, signal)}
        items={(p) => p.invitations}
        itemKey={(i) => i.id}
        empty={t('adminInvites.none')}
        ordered
        className="money-list"
        labelledBy={headingId}
        moreLabel={t('adminMoney.loadMore')}
        moreClassName="money-more"
        header={(first) => <p className="muted">{t('adminInvites.totals', { count: first.total, rewarded: first.rewarded, days: first.reward_days })}</p>}
      >
        {(i) => <InvitationCard i={i} />}
      </PagedList>
    </section>
  );
}

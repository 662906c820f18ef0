/** The invite link with its copy button, what both sides get, and how many rewards are left this month. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { formatTime } from '../files/format-time';
import { copyText } from '../shares/share-format';
import { INVITE_KEY, inviteInfo } from './activity-api';

export function InviteLinkPanel() {
  const { t, i18n } = useTranslation();
  const info = useQuery({ queryKey: INVITE_KEY, queryFn: inviteInfo });
  if (info.error) return <FormError error={errorMessage(info.error)} />;
  if (!info.data) return <p className="muted">{t('common.loading')}</p>;
  const d = info.data;
  const copy = async () => {
    if (await copyText(d.link)) toast.success(t('activity.copied'));
    else toast.error(t('activity.copyFailed'));
  };
  return (
    <div className="invite-panel">
      <p>{d.reward_days > 0 ? t('activity.rewardBoth', { count: d.reward_days }) : t('activity.rewardsOff')}</p>
      <div className="field">
        <label htmlFor="invite-link">{t('activity.yourLink')}</label>
        <div className="invite-link-row">
          <input id="invite-link" readOnly value={d.link} onFocus={(e) => e.currentTarget.select()} />
          <button className="btn primary" type="button" onClick={() => void copy()}>
            {t('activity.copyLink')}
          </button>
        </div>
        <small className="muted">{t('activity.yourCode', { code: d.invitation_code })}</small>
      </div>
      {d.reward_days > 0 && (
        <p className="invite-left">
          {d.monthly_limit > 0
            ? t('activity.rewardsLeft', { count: d.rewards_left, time: formatTime(d.resets_at, i18n.language) })
            : t('activity.noMonthlyLimit')}
        </p>
      )}
      <p className="muted">{t('activity.totals', { invited: d.total_invited, rewarded: d.total_rewarded, days: d.days_earned })}</p>
    </div>
  );
}

/**
 * The sidebar's notice that premium (or storage, or transfer) was taken back: shown while a taking is unread, it
 * leads to /notices/premium-deduct, which tells how much, why and what is left; the × puts it away unread.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUnseenDeduction } from './notices-api';
import './notices.css';

export function DeductNotice() {
  const { t } = useTranslation();
  const { unseen, markSeen } = useUnseenDeduction();
  if (!unseen) return null;
  return (
    <div className="deduct-notice" role="status">
      <Link to="/notices/premium-deduct">{t('firstWeek.deductNotice')}</Link>
      <button className="link deduct-notice-x" type="button" aria-label={t('firstWeek.dismiss')} onClick={() => void markSeen()}>
        ×
      </button>
    </div>
  );
}

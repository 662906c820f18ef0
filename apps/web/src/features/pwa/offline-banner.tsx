/** Says so while the browser has no network: the shell still opens, but what needs the server waits. */
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { useOnline } from './use-online';
import './offline-banner.css';

export function OfflineBanner() {
  const { t } = useTranslation();
  if (useOnline()) return null;
  return (
    <div className="offline-banner" role="status">
      <Icon name="alert" size={18} />
      <span>
        <strong>{t('pwa.offline')}</strong> {t('pwa.offlineMore')}
      </span>
    </div>
  );
}

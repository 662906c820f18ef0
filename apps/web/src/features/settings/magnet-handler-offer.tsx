/**
 * "Open magnet links with Haul": asks the browser to hand magnet: links to the drive's cloud download (the same
 * deep link the installed app's manifest names). Offered once, where the browser can do it and the installed app
 * (which registers itself) is not what is running.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Icon } from '../../components/icon';
import './magnet-handler-offer.css';

const ANSWERED = 'haul.magnetHandler';
/** The address a magnet link opens; %s is the link, escaped by the browser. */
export const MAGNET_HANDLER_URL = '/drive/all?action=create_task&url=%s';

function offered(): boolean {
  try {
    return (
      typeof navigator.registerProtocolHandler === 'function' &&
      !window.matchMedia?.('(display-mode: standalone)').matches &&
      localStorage.getItem(ANSWERED) === null
    );
  } catch {
    return false;
  }
}

export function MagnetHandlerOffer() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(offered);
  if (!shown) return null;
  const answer = (how: 'asked' | 'dismissed') => {
    try {
      localStorage.setItem(ANSWERED, how);
    } catch {
      // Private browsing without storage: the offer just comes back next time.
    }
    setShown(false);
  };
  const ask = () => {
    try {
      navigator.registerProtocolHandler('magnet', `${window.location.origin}${MAGNET_HANDLER_URL}`);
      toast.success(t('pwa.magnetAsked'));
    } catch (err) {
      toast.error(t('pwa.magnetRefused', { reason: (err as Error).message }));
    }
    answer('asked');
  };
  const dismiss = t('pwa.magnetNotNow');
  return (
    <div className="magnet-offer">
      <button type="button" className="link" onClick={ask}>
        {t('pwa.magnetOffer')}
      </button>
      <button type="button" className="icon-btn" aria-label={dismiss} title={dismiss} onClick={() => answer('dismissed')}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}

/**
 * The seed's deep links (000 §2 "Query parameters", "Action values"), handled in one place: on any drive address,
 * `?action=…` and its parameters are read (deep-link-params.ts), leave the address without a history entry (so a
 * reload or Back does not act again), and the action's handler runs (deep-link-actions.ts). An unknown action is
 * dropped and the page opens as it is. `locale` switches the language and the marketing parameters are kept, with
 * an action or without. Also hosts what follows a cloud download just added (offline/landing-watcher.tsx).
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { useInviteDialog } from '../activity/invite-dialog';
import { LandingWatcher } from '../offline/landing-watcher';
import { useRedeemBox } from '../plans/redeem-box';
import { applyLocale, HANDLERS } from './deep-link-actions';
import { readDeepLink, withoutDeepLink } from './deep-link-params';
import { keepMarketingParams } from './marketing-params';

// Read as the app starts, on whichever page it starts (the sign-in page of a visitor who is not signed in yet): the
// sign-up that may follow is what the values are counted with.
keepMarketingParams(window.location.search);

export function DeepLinkHost() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const redeemBox = useRedeemBox();
  const inviteDialog = useInviteDialog();
  const handled = useRef('');

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const rest = withoutDeepLink(params);
    if (!rest || handled.current === location.key) return;
    handled.current = location.key;
    keepMarketingParams(location.search);
    const link = readDeepLink(params);
    const search = rest.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true, state: location.state },
    );
    void applyLocale(params.get('locale'));
    const action = link?.action;
    if (!link || !action || action === 'search') return;
    const context = {
      navigate: (to: string, opts?: object) => void navigate(to, opts),
      t,
      pathname: location.pathname,
      openRedeemBox: redeemBox.open,
      openInviteDialog: inviteDialog.open,
    };
    void Promise.resolve()
      .then(() => HANDLERS[action](link, context))
      .catch((err: unknown) => {
        const msg = errorMessage(err);
        if (msg) toast.error(msg);
      });
  }, [location, navigate, t, redeemBox.open, inviteDialog.open]);

  return <LandingWatcher />;
}

/** The prompts of gated playback: the end of a share's preview, and a quality the viewer's plan does not cover. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { track } from '../../lib/stats';
import { useSessionStore } from '../auth/session-store';

/** Where saving a share goes: its page with the save dialog, through sign-in when signed out. */
function saveHref(shareId: string, signedIn: boolean): string {
  const page = `/s/${shareId}?save=1`;
  return signedIn ? page : `/drive/login?${new URLSearchParams({ redirect: page })}`;
}

/** Shown when a limited preview reaches its end: save to the drive, sign in, or go premium to watch the rest. */
export function PreviewEndPrompt({ shareId, onReplay, onUpgrade }: { shareId: string; onReplay: () => void; onUpgrade: () => void }) {
  const { t } = useTranslation();
  const signedIn = useSessionStore((s) => !!s.session);
  useEffect(() => track('play_limited_show'), []);
  return (
    <div className="play-gate" role="dialog" aria-labelledby="preview-end-title">
      <h2 id="preview-end-title">{t('viewer.previewEnded')}</h2>
      <p>{t('viewer.previewEndedHint')}</p>
      <div className="play-gate-actions">
        <a className="btn primary" href={saveHref(shareId, signedIn)}>
          {t('viewer.saveToWatch')}
        </a>
        {!signedIn && (
          <a className="btn" href={`/drive/login?${new URLSearchParams({ redirect: `/s/${shareId}` })}`}>
            {t('viewer.signInToWatch')}
          </a>
        )}
        <button
          className="btn"
          type="button"
          onClick={() => {
            track('play_limited_click');
            onUpgrade();
          }}
        >
          {t('viewer.upgrade')}
        </button>
        <button className="btn" type="button" onClick={onReplay}>
          {t('viewer.watchAgain')}
        </button>
      </div>
    </div>
  );
}

/** Asked before leaving for the payment pages for a premium quality. */
export function PremiumQualityPrompt({ quality, onUpgrade, onCancel }: { quality: string; onUpgrade: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="play-gate" role="dialog" aria-labelledby="premium-quality-title">
      <h2 id="premium-quality-title">{t('viewer.premiumQuality', { quality })}</h2>
      <p>{t('viewer.premiumQualityHint')}</p>
      <div className="play-gate-actions">
        <button className="btn primary" type="button" onClick={onUpgrade}>
          {t('viewer.upgrade')}
        </button>
        <button className="btn" type="button" onClick={onCancel}>
          {t('viewer.notNow')}
        </button>
      </div>
    </div>
  );
}

/**
 * The player's subtitles button and its panel: off or a track (an image track is burned into the picture by the
 * server, which takes a moment: the panel says how it stands), a subtitle file
 * from the drive, text size, position (raise, lower) and delay in half seconds. Escape or a click outside closes it.
 */
import './subtitles.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DELAY_STEP, MAX_DELAY, MAX_RAISE, SUBTITLE_SIZES, type SubtitleSize } from './subtitle-records';
import { SubtitlePicker } from './subtitle-picker';
import { subtitleLabel } from './subtitles-api';
import type { Subtitles } from './subtitles-state';

/** "CC" in a frame: there is no subtitles icon in the shared set. */
function CaptionsIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M10.5 10.2a2.2 2.2 0 1 0 0 3.6M17 10.2a2.2 2.2 0 1 0 0 3.6" />
    </svg>
  );
}

/** How the chosen image track's burn-in stands, in the panel. */
function burnWords(subs: Subtitles, t: (key: string) => string): string {
  if (subs.burnFailed || subs.burn?.state === 'failed') return subs.burn?.message || t('subtitles.burnFailed');
  if (subs.burn?.state === 'ready') return t('subtitles.burned');
  return t('subtitles.burning');
}

const seconds = (s: number) => `${s > 0 ? '+' : s < 0 ? '−' : ''}${Math.abs(s).toFixed(1)} s`;

export function SubtitlesControl({ subs, open, onOpen }: { subs: Subtitles; open: boolean; onOpen: (open: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const [picking, setPicking] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { tracks, choice, change } = subs;

  useEffect(() => {
    if (!open) return setPicking(false);
    const away = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) onOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open, onOpen]);

  const close = () => {
    onOpen(false);
    button.current?.focus();
  };
  const label = t('subtitles.button');
  const words = { track: (n: number) => t('subtitles.track', { n }), forced: t('subtitles.forced') };
  const delay = (d: number) => change({ delay: Math.max(-MAX_DELAY, Math.min(MAX_DELAY, Math.round(d * 10) / 10)) });

  return (
    <>
      <button
        ref={button}
        className={`icon-btn${choice.track ? ' subtitles-on' : ''}`}
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => onOpen(!open)}
      >
        <CaptionsIcon />
      </button>
      {open && (
        <div
          ref={panel}
          className="subtitles-panel"
          role="dialog"
          aria-label={label}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.stopPropagation();
            if (picking) setPicking(false);
            else close();
          }}
        >
          {picking ? (
            <SubtitlePicker
              onPick={(fileId) => {
                change({ file: fileId, track: `f${fileId}` });
                setPicking(false);
              }}
              onBack={() => setPicking(false)}
            />
          ) : (
            <>
              <div className="subtitles-tracks" role="radiogroup" aria-label={t('subtitles.tracks')}>
                <label className="subtitles-track">
                  <input type="radio" name="subtitle-track" checked={choice.track === ''} onChange={() => change({ track: '' })} />
                  <span>{t('subtitles.off')}</span>
                </label>
                {tracks.map((track, i) => {
                  const image = track.kind === 'image';
                  const chosen = choice.track === track.id;
                  return (
                    <label key={track.id} className="subtitles-track" title={image ? t('subtitles.burnNote') : undefined}>
                      <input type="radio" name="subtitle-track" checked={chosen} onChange={() => change({ track: track.id })} />
                      <span className="subtitles-track-name">{subtitleLabel(track, i, i18n.language, words)}</span>
                      {image && (
                        <span className="subtitles-note" data-testid={`burn-${track.id}`} role={chosen ? 'status' : undefined}>
                          {chosen ? burnWords(subs, t) : t('subtitles.burnIn')}
                        </span>
                      )}
                    </label>
                  );
                })}
                {subs.loading && <p className="subtitles-note">{t('subtitles.loading')}</p>}
                {subs.failed && <p className="subtitles-note">{t('subtitles.failed')}</p>}
                {!subs.loading && !subs.failed && tracks.length === 0 && <p className="subtitles-note">{t('subtitles.none')}</p>}
              </div>
              <button type="button" className="btn small subtitles-choose" onClick={() => setPicking(true)}>
                {t('subtitles.choose')}
              </button>
              <div className="subtitles-row">
                <label htmlFor="subtitle-size">{t('subtitles.size')}</label>
                <select
                  id="subtitle-size"
                  className="media-select"
                  value={choice.size}
                  onChange={(e) => change({ size: e.target.value as SubtitleSize })}
                >
                  {SUBTITLE_SIZES.map((s) => (
                    <option key={s} value={s}>
                      {t(`subtitles.sizes.${s}`)}
                    </option>
                  ))}
                </select>
              </div>
              <div className="subtitles-row" role="group" aria-label={t('subtitles.position')}>
                <span>{t('subtitles.position')}</span>
                <span className="subtitles-stepper">
                  <button type="button" className="icon-btn" aria-label={t('subtitles.lower')} title={t('subtitles.lower')} disabled={choice.raise <= 0} onClick={() => change({ raise: choice.raise - 1 })}>
                    ↓
                  </button>
                  <output aria-live="polite">{choice.raise ? t('subtitles.raised', { n: choice.raise }) : t('subtitles.bottom')}</output>
                  <button type="button" className="icon-btn" aria-label={t('subtitles.raise')} title={t('subtitles.raise')} disabled={choice.raise >= MAX_RAISE} onClick={() => change({ raise: choice.raise + 1 })}>
                    ↑
                  </button>
                </span>
              </div>
              <div className="subtitles-row" role="group" aria-label={t('subtitles.delay')}>
                <span>{t('subtitles.delay')}</span>
                <span className="subtitles-stepper">
                  <button type="button" className="icon-btn" aria-label={t('subtitles.earlier')} title={t('subtitles.earlier')} onClick={() => delay(choice.delay - DELAY_STEP)}>
                    −
                  </button>
                  <output aria-live="polite" data-testid="subtitle-delay">
                    {seconds(choice.delay)}
                  </output>
                  <button type="button" className="icon-btn" aria-label={t('subtitles.later')} title={t('subtitles.later')} onClick={() => delay(choice.delay + DELAY_STEP)}>
                    +
                  </button>
                  <button type="button" className="btn small" disabled={choice.delay === 0} onClick={() => delay(0)}>
                    {t('subtitles.reset')}
                  </button>
                </span>
              </div>
            </>
          )}
        </div>
      )}
    </>
  );
}

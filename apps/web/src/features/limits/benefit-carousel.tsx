/**
 * The premium benefits, one slide at a time (seed 001 §1, §9): a slide every 3 s, starting 5 s after it appears;
 * hover, focus or the pause button stop it, and nothing moves by itself for people who ask for reduced motion. It
 * follows the WAI-ARIA carousel pattern: slides are labelled "n of N", and announced only while it stands still.
 */
import { useCallback, useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon';
import { BENEFITS } from './benefits';

export const SLIDE_MS = 3000;
export const AUTOPLAY_AFTER_MS = 5000;

const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** `only`: the benefits to show (those the limit at hand is lifted by, or those premium gives here); all when absent. */
export function BenefitCarousel({ only }: { only?: readonly string[] } = {}) {
  const list = only ? BENEFITS.filter((b) => only.includes(b)) : BENEFITS;
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [started, setStarted] = useState(false);
  const [paused, setPaused] = useState(reducedMotion);
  const [held, setHeld] = useState(false);
  const playing = started && !paused && !held;
  const count = list.length;
  const go = useCallback((step: number) => setIndex((i) => (i + step + count) % count), [count]);

  useEffect(() => {
    const timer = setTimeout(() => setStarted(true), AUTOPLAY_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (!playing || count < 2) return;
    const timer = setInterval(() => go(1), SLIDE_MS);
    return () => clearInterval(timer);
  }, [playing, count, go]);

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') go(1);
    else if (e.key === 'ArrowLeft') go(-1);
    else return;
    e.preventDefault();
  };
  const b = list[index % list.length];
  if (!b) return null;
  return (
    <section
      className="benefits"
      aria-roledescription={t('limits.carousel')}
      aria-label={t('limits.benefitsTitle')}
      onKeyDown={onKey}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setHeld(false)}
    >
      {list.length > 1 && (
        <div className="benefits-controls">
          <Control label={paused ? t('limits.play') : t('limits.pause')} onClick={() => setPaused((p) => !p)}>
            <Icon name={paused ? 'play' : 'pause'} size={16} />
          </Control>
          <Control label={t('limits.previous')} onClick={() => go(-1)}>
            ‹
          </Control>
          <Control label={t('limits.next')} onClick={() => go(1)}>
            ›
          </Control>
        </div>
      )}
      <div className="benefits-viewport" aria-live={playing ? 'off' : 'polite'}>
        <div key={b} className="benefit" role="group" aria-roledescription={t('limits.slide')} aria-label={t('limits.slideOf', { n: (index % list.length) + 1, total: list.length })} data-benefit={b}>
          <strong>{t(`limits.benefit.${b}.title`)}</strong>
          <p>{t(`limits.benefit.${b}.text`)}</p>
        </div>
      </div>
      <div className="benefits-dots" aria-hidden="true">
        {list.length > 1 && list.map((x, i) => (
          <span key={x} className={i === index ? 'on' : ''} />
        ))}
      </div>
    </section>
  );
}

/** An icon button of the carousel: its name is said by screen readers and shown on hover. */
function Control({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="icon-btn" onClick={onClick} aria-label={label} title={label}>
      {children}
    </button>
  );
}

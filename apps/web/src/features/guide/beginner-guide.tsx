/**
 * The beginner guide (seed 001 §2, §6): a short tour for a new account on the all-files screen: "+ New" (a cloud
 * download first), the transfer list, and the browser extension. It starts by itself once while the server says the
 * account is in its guide (user info in_beginner_guide: its first 7 days), never at 768 px or narrower; finishing or skipping it is kept on the account (the setting
 * beginner_guide_done), so another browser does not start it again. `?action=show_beginner_dialog` opens it any time
 * (still not on a phone). The element a step is about is ringed; the card stays in a corner, out of its way.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { haul } from '../../lib/api-client';
import { getMe } from '../auth/auth-api';
import { saveSetting } from '../settings/settings-sync';
import { useGuide } from './guide-store';
import './beginner-guide.css';


const STEPS = [
  { target: '.new-btn', title: 'guide.newTitle', body: 'guide.newBody' },
  { target: '.transfer-head', title: 'guide.transfersTitle', body: 'guide.transfersBody' },
  { target: '', title: 'guide.extensionTitle', body: 'guide.extensionBody' },
] as const;

/** Starts the guide once for a new account whose guide is not done, on a wide screen. */
function useStartOnce() {
  const me = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const settings = useQuery({ queryKey: ['user-settings', 'beginner_guide_done'], queryFn: () => haul.call('getUserSettings', { query: { items: 'beginner_guide_done' } }), staleTime: Infinity, meta: { quiet: true } });
  const fresh = me.data?.in_beginner_guide === true;
  const done = settings.data?.settings.some((s) => s.item === 'beginner_guide_done' && s.value === true);
  useEffect(() => {
    if (fresh && settings.data && !done) useGuide.getState().show();
  }, [fresh, settings.data, done]);
}

export function BeginnerGuide() {
  const { t } = useTranslation();
  useStartOnce();
  const open = useGuide((s) => s.open);
  const [step, setStep] = useState(0);
  const current = STEPS[step]!;

  // The element the step is about is ringed while the step shows.
  useEffect(() => {
    if (!open || !current.target) return;
    const el = document.querySelector(current.target);
    el?.classList.add('guide-target');
    return () => el?.classList.remove('guide-target');
  }, [open, current.target]);

  if (!open) return null;
  const finish = () => {
    saveSetting('beginner_guide_done', true);
    useGuide.getState().hide();
    setStep(0);
  };
  const last = step === STEPS.length - 1;
  return (
    <section className="guide-card" role="dialog" aria-modal="false" aria-labelledby="guide-title" aria-describedby="guide-body">
      <p className="guide-count">{t('guide.step', { step: step + 1, count: STEPS.length })}</p>
      <h2 id="guide-title">{t(current.title)}</h2>
      <p id="guide-body">{t(current.body)}</p>
      {!current.target && (
        <p>
          <Link className="link" to="/extension" onClick={finish}>
            {t('guide.extensionLink')}
          </Link>
        </p>
      )}
      <div className="guide-actions">
        <button type="button" className="link" onClick={finish}>
          {t('guide.skip')}
        </button>
        {step > 0 && (
          <button type="button" className="btn" onClick={() => setStep(step - 1)}>
            {t('guide.back')}
          </button>
        )}
        <button type="button" className="btn primary" autoFocus onClick={() => (last ? finish() : setStep(step + 1))}>
          {last ? t('guide.done') : t('guide.next')}
        </button>
      </div>
    </section>
  );
}

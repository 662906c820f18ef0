/** The logo and the install's name (the operator's site name; Haul unless set). */
import { LOGO_PATHS } from '../../components/icon-paths';
import { useSiteName } from '../site/site-name';

export function Logo() {
  const name = useSiteName();
  return (
    <span className="logo" aria-label={name}>
      <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
        <path d={LOGO_PATHS.cloud} fill="currentColor" opacity=".9" />
        <path d={LOGO_PATHS.arrow} stroke="var(--bg)" strokeWidth="1.8" fill="none" strokeLinecap="round" />
      </svg>
      <b>{name}</b>
    </span>
  );
}

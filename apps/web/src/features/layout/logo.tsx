/** The logo and the install's name (the operator's site name; Haul unless set). */
import { useSiteName } from '../site/site-name';

export function Logo() {
  const name = useSiteName();
  return (
    <span className="logo" aria-label={name}>
      <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
        <path d="M6 19a5 5 0 0 1-.6-9.96A7 7 0 0 1 19 8.5a4.5 4.5 0 0 1-.5 10.5H6Z" fill="currentColor" opacity=".9" />
        <path d="M12 9v6m0 0-2.5-2.5M12 15l2.5-2.5" stroke="var(--bg)" strokeWidth="1.8" fill="none" strokeLinecap="round" />
      </svg>
      <b>{name}</b>
    </span>
  );
}

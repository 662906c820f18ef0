/**
 * The wide card of the pages that say what something does, open signed out (the landing page, the extension's install
 * page): the sign-in frame, the logo, a title and lead, a list of points each with its icon, then the page's own part.
 */
import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../components/icon';
import { AuthShell } from '../auth/login-page';
import { Logo } from '../layout/logo';
import './intro-card.css';

/** A point: its icon, and its words (a title above, when it has one). */
export interface IntroPoint {
  icon: IconName;
  title?: string;
  body: string;
}

interface Props {
  /** The title's id, which names the card. */
  id: string;
  title: string;
  lead: string;
  points: IntroPoint[];
  /** The page's own class, for its width and what follows the points. */
  className: string;
  children: ReactNode;
}

export function IntroCard({ id, title, lead, points, className, children }: Props) {
  return (
    <AuthShell>
      <article className={`login-card intro-card ${className}`} aria-labelledby={id}>
        <Logo />
        <h1 id={id}>{title}</h1>
        <p className="intro-lead">{lead}</p>
        <ul className="intro-points">
          {points.map((p) => (
            <li key={p.body}>
              <Icon name={p.icon} size={22} />
              <div>
                {p.title && <strong>{p.title}</strong>}
                <span>{p.body}</span>
              </div>
            </li>
          ))}
        </ul>
        {children}
      </article>
    </AuthShell>
  );
}

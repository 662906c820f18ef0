/** Screens with little of their own: 403 and 404, the first load. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../features/files/file-manager-page';

export function ForbiddenPage() {
  const { t } = useTranslation();
  return (
    <main className="standalone">
      <EmptyState icon="close" title={t('errors.forbiddenTitle')} hint={t('errors.forbiddenHint')}>
        <Link className="btn" to="/all">
          {t('nav.all')}
        </Link>
      </EmptyState>
    </main>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="standalone">
      <EmptyState icon="search" title={t('errors.notFoundTitle')} hint={t('errors.notFoundHint')}>
        <Link className="btn" to="/all">
          {t('nav.all')}
        </Link>
      </EmptyState>
    </main>
  );
}

/** A fresh page whose screen's code is still loading: the loading bar the other screens show while they load. */
export function StartingPage() {
  const { t } = useTranslation();
  return <div className="nav-progress active" role="progressbar" aria-label={t('common.loading')} aria-busy="true" />;
}

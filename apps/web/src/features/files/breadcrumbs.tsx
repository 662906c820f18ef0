/** Where the folder sits; the last 20 folders' chains are remembered so going back paints the path at once. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Breadcrumb } from '@haul/shared';
import { Icon } from '../layout/icon';
import { getAncestors } from './files-api';

export const BREADCRUMB_HISTORY = 20;
const history = new Map<string, Breadcrumb[]>();

/** Keeps the newest BREADCRUMB_HISTORY chains. */
export function rememberChain(id: string, chain: Breadcrumb[]): void {
  history.delete(id);
  history.set(id, chain);
  while (history.size > BREADCRUMB_HISTORY) history.delete(history.keys().next().value!);
}

export function useAncestors(folderId: string | undefined) {
  return useQuery({
    queryKey: ['file', 'ancestors', folderId],
    enabled: !!folderId,
    queryFn: async () => {
      const chain = await getAncestors(folderId!);
      rememberChain(folderId!, chain);
      return chain;
    },
    placeholderData: () => (folderId ? history.get(folderId) : undefined),
    retry: false,
  });
}

export function Breadcrumbs({ root, rootLabel, chain }: { root: string; rootLabel: string; chain: Breadcrumb[] }) {
  const { t } = useTranslation();
  return (
    <nav className="crumbs" aria-label={t('files.breadcrumbs')}>
      {chain.length === 0 ? (
        <h1 className="crumb current">{rootLabel}</h1>
      ) : (
        <Link className="crumb" to={root}>
          {rootLabel}
        </Link>
      )}
      {chain.map((b, i) => (
        <span key={b.id} className="crumb-part">
          <Icon name="chevron" size={14} />
          {i === chain.length - 1 ? (
            <h1 className="crumb current" aria-current="page">
              {b.name}
            </h1>
          ) : (
            <Link className="crumb" to={`${root}/${b.id}`}>
              {b.name}
            </Link>
          )}
        </span>
      ))}
    </nav>
  );
}

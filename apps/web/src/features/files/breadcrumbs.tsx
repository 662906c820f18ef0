/** Where the folder sits; the last 20 folders' chains are remembered so going back paints the path at once. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Breadcrumb } from '@haul/shared';
import { Icon } from '../../components/icon';
import { useIsMobile } from '../layout/use-media';
import { getAncestors } from './files-api';

export const BREADCRUMB_HISTORY = 20;
const history = new Map<string, Breadcrumb[]>();

/** Keeps the newest BREADCRUMB_HISTORY chains. */
export function rememberChain(id: string, chain: Breadcrumb[]): void {
  history.delete(id);
  history.set(id, chain);
  while (history.size > BREADCRUMB_HISTORY) history.delete(history.keys().next().value!);
}

/** The folder's chain from the top (the folder last), remembered for the next visit. */
export async function fetchChain(folderId: string): Promise<Breadcrumb[]> {
  const chain = await getAncestors(folderId);
  rememberChain(folderId, chain);
  return chain;
}

export function useAncestors(folderId: string | undefined) {
  return useQuery({
    queryKey: ['file', 'ancestors', folderId],
    enabled: !!folderId,
    queryFn: () => fetchChain(folderId!),
    placeholderData: () => (folderId ? history.get(folderId) : undefined),
    retry: false,
  });
}

/**
 * The path to the folder on screen. When it does not fit (a phone, deep folders) the middle collapses into "…"
 * (a link to the parent), never the end: the folder the person is in is always named.
 */
export function Breadcrumbs({ root, rootLabel, chain }: { root: string; rootLabel: string; chain: Breadcrumb[] }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  if (chain.length > (mobile ? 1 : 3)) {
    const parent = chain[chain.length - 2]!;
    const current = chain[chain.length - 1]!;
    return (
      <nav className="crumbs collapsed" aria-label={t('files.breadcrumbs')}>
        <Link className="crumb" to={root}>
          {rootLabel}
        </Link>
        <span className="crumb-part">
          <Icon name="chevron" size={14} />
          <Link className="crumb" to={`${root}/${parent.id}`} aria-label={parent.name} title={chain.slice(0, -1).map((b) => b.name).join(' › ')}>
            …
          </Link>
        </span>
        <span className="crumb-part current-part">
          <Icon name="chevron" size={14} />
          <h1 className="crumb current" aria-current="page" title={current.name}>
            {current.name}
          </h1>
        </span>
      </nav>
    );
  }
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

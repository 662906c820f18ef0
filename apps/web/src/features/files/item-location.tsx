/**
 * Where an item sits: its folder as a link that opens the folder with the item selected (a search result's location),
 * and the whole path as links (Details). Chains share the breadcrumbs' cache, one query per distinct folder, so a page
 * of results from three folders asks three times, and only for the rows rendered.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Breadcrumb, DriveFile } from '@haul/shared';
import { Icon } from '../../components/icon';
import { fetchChain } from './breadcrumbs';

/** The chain from the top to `folderId` (inclusive); the top itself has none to fetch. */
export function useFolderChain(folderId: string) {
  return useQuery({
    queryKey: ['file', 'ancestors', folderId],
    enabled: !!folderId,
    queryFn: () => fetchChain(folderId),
    // Rows recycled while scrolling mount the same folders again and again; a change the person makes refreshes
    // every 'file' query anyway.
    staleTime: 5 * 60_000,
    retry: false,
    // A location that cannot be read shows as unknown; no toast for each row.
    meta: { quiet: true },
  });
}

const folderLink = (id: string) => (id ? `/all/${id}` : '/all');

/** "All files › Photos › 2024", for a tooltip. */
export function pathText(rootLabel: string, chain: readonly Breadcrumb[]): string {
  return [rootLabel, ...chain.map((b) => b.name)].join(' › ');
}

/** A search result's folder: its name (the full path as the tooltip), opening it with the result selected. */
export function ItemLocation({ file }: { file: DriveFile }) {
  const { t } = useTranslation();
  const parent = file.parent_id;
  const { data, isError } = useFolderChain(parent);
  const root = t('nav.all');
  const name = !parent ? root : (data?.at(-1)?.name ?? (isError ? '-' : '…'));
  return (
    <Link
      className="floc-link"
      to={folderLink(parent)}
      state={{ highlight: file.id }}
      title={!parent ? root : data ? pathText(root, data) : undefined}
      // One tab stop for the whole list: "Show in folder" in the item's menu is the keyboard's way there.
      tabIndex={-1}
      draggable={false}
    >
      <Icon name="folder" size={14} />
      <span>{name}</span>
    </Link>
  );
}

/** Every folder from the top to the item's, each a link; each opens with the next step (or the item) selected. */
export function LocationPath({ file, onGo }: { file: DriveFile; onGo?: () => void }) {
  const { t } = useTranslation();
  const parent = file.parent_id;
  const { data, isError } = useFolderChain(parent);
  if (parent && !data) return <span className="muted">{isError ? '-' : t('common.loading')}</span>;
  const chain = parent ? data! : [];
  const steps = [{ id: '', name: t('nav.all') }, ...chain];
  return (
    <nav className="location-path" aria-label={t('files.location')}>
      {steps.map((b, i) => (
        <span key={b.id || 'root'} className="location-step">
          {i > 0 && <Icon name="chevron" size={12} />}
          <Link to={folderLink(b.id)} state={{ highlight: steps[i + 1]?.id ?? file.id }} onClick={onGo}>
            {b.name}
          </Link>
        </span>
      ))}
    </nav>
  );
}

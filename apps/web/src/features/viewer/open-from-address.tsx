/**
 * Opens the viewer on a file the address names but the viewer does not hold (a reload, Forward, a link pasted into
 * another tab), among the same neighbours the page would give it: the list last closed on this page (Forward), else
 * the page's own list (a folder or the starred items from the local database, a search from the server), else the
 * file alone until that list holds it. A file that cannot be found (gone, in the trash, someone else's) or cannot be
 * previewed leaves the page as it is, without the parameter, and says so in a toast; an archive opens its archive page.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { DriveFile, SearchFilter } from '@haul/shared';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { useSessionStore } from '../auth/session-store';
import { useDisplayMode } from '../files/display-mode-store';
import { getFile } from '../files/files-api';
import { sortFiles } from '../files/sort';
import { useSearchListing } from '../files/use-listing';
import { useLocalFiles, type LocalSlice } from '../files/use-local-files';
import { readSearch } from '../search/search-state';
import { closedListFor, placeOf, sceneOf, withPreview } from './viewer-address';
import { archivePageOf } from './view-kind';
import { previewable, useViewer, type Scene } from './viewer-store';

interface Props {
  id: string;
  onSettled: () => void;
}

export function OpenFromAddress(props: Props) {
  const { pathname, search } = useLocation();
  const closed = closedListFor(placeOf(pathname, search), props.id);
  if (closed) return <Among {...props} list={closed.files} scene={closed.scene} />;
  const scene = sceneOf(pathname);
  // The lists of All files and Starred, as FileManagerPage reads them; other pages' lists are not rebuilt here.
  const [, view, folderId = ''] = pathname.split('/');
  if (view !== 'all' && view !== 'star') return <Among {...props} list={[]} scene={scene} />;
  const filter = readSearch(new URLSearchParams(search));
  if (filter)
    return (
      <FromSearch
        {...props}
        scene="cloud_page" // as FileView's 'search' view opens files
        filter={{ ...filter, star: filter.star || view === 'star' || undefined }}
        modeKey={`search:${view}`}
      />
    );
  const slice: LocalSlice = view === 'star' && !folderId ? { kind: 'starred' } : { kind: 'folder', parentId: folderId };
  return <FromLocal {...props} scene={scene} slice={slice} modeKey={`${view}:${folderId}`} />;
}

function useOrder(modeKey: string) {
  const { i18n } = useTranslation();
  useDisplayMode((s) => s.global);
  const mode = useDisplayMode.getState().modeFor(modeKey);
  return { order: mode.orderType, pin: mode.pinFoldersTop, locale: i18n.language };
}

function FromLocal({ slice, modeKey, ...rest }: Props & { scene: Scene; slice: LocalSlice; modeKey: string }) {
  const userId = useSessionStore((s) => s.session!.userId);
  const rows = useLocalFiles(userId, slice);
  const { order, pin, locale } = useOrder(modeKey);
  const list = useMemo(() => rows && sortFiles([...rows], order, pin, locale), [rows, order, pin, locale]);
  return <Among {...rest} list={list} />;
}

function FromSearch({ filter, modeKey, ...rest }: Props & { scene: Scene; filter: SearchFilter; modeKey: string }) {
  // The same query as the page's, so both read one answer.
  const found = useSearchListing(filter, useOrder(modeKey));
  return <Among {...rest} list={found.files} />;
}

/** Opens the file among `list` once the list holds it; meanwhile (or for good) alone, once the server knows it. */
function Among({ id, list, scene, onSettled }: Props & { list: DriveFile[] | undefined; scene: Scene }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const asked = useRef(false);
  // An answer that comes after the address moved on (or the list was found) is not acted on.
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  const found = list?.find((f) => f.id === id);
  const hit = !!found;
  const archivePage = found ? archivePageOf(found) : null;

  useEffect(() => {
    if (!hit) return;
    // An archive named as the file to preview opens where archives open.
    if (archivePage) void navigate(archivePage, { replace: true });
    else useViewer.getState().open(list!, id, scene);
    onSettled();
  }, [hit, archivePage, list, id, scene, onSettled, navigate]);

  useEffect(() => {
    if (hit || asked.current) return;
    asked.current = true;
    const drop = (message: string) => {
      if (message) toast.error(message);
      void navigate({ pathname: location.pathname, search: withPreview(location.search, null), hash: location.hash }, { replace: true });
      onSettled();
    };
    getFile(id).then(
      (file) => {
        if (!live.current) return;
        const archive = archivePageOf(file);
        if (file.trashed) drop(t('viewer.notFound'));
        else if (archive) {
          void navigate(archive, { replace: true });
          onSettled();
        } else if (!previewable(file)) drop(t('viewer.unsupported.file'));
        // The list may have come meanwhile; if not, the file shows alone until it does.
        else if (!useViewer.getState().files.some((f) => f.id === id)) useViewer.getState().open([file], id, scene);
      },
      (err) =>
        live.current &&
        drop(isApiError(err, 'unauthenticated') ? '' : isApiError(err, 'file_not_found') ? t('viewer.notFound') : errorMessage(err)),
    );
  });
  return null;
}

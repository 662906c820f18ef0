/** All files and Starred (seed 000 §2): a folder or the starred items, with search mode, from the local database first. */
import * as ContextMenu from '@radix-ui/react-context-menu';
import { useEffect, useLayoutEffect, useRef, useState, type DragEvent } from 'react';
import { dropFirstPaint } from '../first-paint/drop';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { DriveFile } from '@haul/shared';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { useSessionStore } from '../auth/session-store';
import { Icon } from '../../components/icon';
import { TOUCH_OR_NARROW_QUERY, useMedia } from '../layout/use-media';
import { SearchFilters } from '../search/search-filters';
import { readSearch } from '../search/search-state';
import { useUploadPicker } from '../uploads/upload-picker';
import { NewMenu, pastedLinks, type AddActions } from './new-menu';
import type { View } from './actions';
import { Breadcrumbs, useAncestors } from './breadcrumbs';
import { useDialog } from '../../app/dialogs/dialog-store';
import { DisplayControls } from './display-controls';
import { readDrop } from '../uploads/drop-snapshot';
import { useDisplayMode } from './display-mode-store';
import { folderModeKey } from './display-mode';
import { moveFiles } from './file-mutations';
import { FileView } from './file-view';
import { SelectionBar } from './selection-bar';
import { pickSelected, useSelection } from './selection-store';
import { useLocalListing, useSearchListing, type Listing } from './use-listing';
import { BeginnerGuide } from '../guide/beginner-guide';

export function Skeleton({ rows = 8 }: { rows?: number }) {
  return (
    <div className="skeleton" aria-busy="true" aria-live="polite">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-row" />
      ))}
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  hint,
  children,
}: {
  icon: Parameters<typeof Icon>[0]['name'];
  title: string;
  hint?: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="empty" role="status">
      <Icon name={icon} size={56} />
      <h2>{title}</h2>
      {hint && <p>{hint}</p>}
      {children}
    </div>
  );
}

export function FileManagerPage({ view }: { view: Extract<View, 'all' | 'star'> }) {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const [params] = useSearchParams();
  const userId = useSessionStore((s) => s.session!.userId);
  const search = readSearch(params);
  const folderId = id ?? '';
  const modeKey = search ? `search:${view}` : folderModeKey(view, folderId);
  useDisplayMode((s) => s.global); // re-render on display changes
  const mode = useDisplayMode.getState().modeFor(modeKey);
  const selected = useSelection((s) => s.selected);
  const openDialog = useDialog((s) => s.open);
  const ancestors = useAncestors(id);
  // Nothing is dropped onto a phone's screen: its empty folder points at what works there.
  const touch = useMedia(TOUCH_OR_NARROW_QUERY);

  const slice = view === 'star' && !id ? ({ kind: 'starred' } as const) : ({ kind: 'folder', parentId: folderId } as const);
  const local = useLocalListing(userId, slice, mode.orderType, mode.pinFoldersTop, i18n.language);
  const found = useSearchListing(search ? { ...search, star: search.star || view === 'star' || undefined } : null, {
    order: mode.orderType,
    pin: mode.pinFoldersTop,
    locale: i18n.language,
  });
  const listing: Listing = search ? found : local;
  const files = listing.files;
  const selectedFiles = pickSelected(files, selected);
  const root = view === 'star' ? '/star' : '/all';
  const rootLabel = view === 'star' ? t('nav.star') : t('nav.all');
  const canCreate = !search && (view === 'all' || !!id);
  const notFound = isApiError(ancestors.error, 'file_not_found') || isApiError(listing.error, 'file_not_found');
  // The app's own answer is on screen (the list, an empty folder, an error): index.html's first paint goes.
  const settled = notFound || !!listing.error || !!files;
  useLayoutEffect(() => {
    if (settled) dropFirstPaint();
  }, [settled]);

  const dropInto = (moved: DriveFile[], folder: DriveFile) => void moveFiles(moved, folder.id);

  const picker = useUploadPicker(folderId);
  const path = id ? (ancestors.data ?? []) : [];
  const add: AddActions = {
    cloudDownload: () => openDialog({ type: 'cloud-download', path }),
    pickFiles: picker.pickFiles,
    pickFolder: picker.pickFolder,
    newFolder: () => openDialog({ type: 'create-folder', parentId: folderId }),
  };
  // A link pasted anywhere in the file list (not into a field) opens the cloud download dialog with it.
  const pathRef = useRef(path);
  pathRef.current = path;
  useEffect(() => {
    if (!canCreate) return;
    const onPaste = (e: ClipboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, [contenteditable=""], [contenteditable="true"], [role="dialog"]')) return;
      const links = pastedLinks(e.clipboardData?.getData('text/plain') ?? '');
      if (!links.length) return;
      e.preventDefault();
      useDialog.getState().open({ type: 'cloud-download', path: pathRef.current, text: links.join('\n') });
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [canCreate]);

  // Files dragged in from the desktop upload into the folder on screen.
  const [dropping, setDropping] = useState(false);
  const osFiles = (e: DragEvent) => canCreate && e.dataTransfer.types.includes('Files');
  const onDragOver = (e: DragEvent) => {
    if (!osFiles(e)) return;
    e.preventDefault();
    setDropping(true);
  };
  const onDrop = async (e: DragEvent) => {
    setDropping(false);
    if (!osFiles(e)) return;
    e.preventDefault();
    // Read during the event, before the first await: the browser empties the drop once the event is over.
    const drop = readDrop(e.dataTransfer);
    const { droppedFiles, uploadPicked } = await import('../uploads/upload-folders');
    const picked = await droppedFiles(drop);
    if (picked.length) await uploadPicked(userId, picked, folderId);
  };

  const backgroundMenu = canCreate ? (
    <>
      <ContextMenu.Item className="menu-item" onSelect={add.cloudDownload}>
        {t('cloud.title')}
      </ContextMenu.Item>
      <ContextMenu.Item className="menu-item" onSelect={add.pickFiles}>
        {t('uploads.files')}
      </ContextMenu.Item>
      <ContextMenu.Item className="menu-item" onSelect={add.newFolder}>
        {t('files.newFolder')}
      </ContextMenu.Item>
    </>
  ) : (
    <ContextMenu.Item className="menu-item" onSelect={() => files && useSelection.getState().selectAll(files.map((f) => f.id))}>
      {t('selection.all')}
    </ContextMenu.Item>
  );

  let body: React.ReactNode;
  if (notFound) {
    body = (
      <EmptyState icon="folder" title={t('files.folderNotFound')} hint={t('files.folderNotFoundHint')}>
        <Link className="btn" to={root}>
          {rootLabel}
        </Link>
      </EmptyState>
    );
  } else if (listing.error && !files?.length) {
    body = <EmptyState icon="folder" title={t('files.loadFailed')} hint={errorMessage(listing.error)} />;
  } else if (!files) {
    body = <Skeleton />;
  } else if (files.length === 0) {
    body = search ? (
      <EmptyState icon="search" title={t('search.noResults')} hint={t('search.noResultsHint')} />
    ) : view === 'star' && !id ? (
      <EmptyState icon="star" title={t('star.empty')} hint={t('star.emptyHint')} />
    ) : (
      <EmptyState
        icon="folder"
        title={t('files.emptyFolder')}
        hint={canCreate ? t(touch ? 'files.emptyFolderHintTouch' : 'files.emptyFolderHint') : undefined}
      >
        {canCreate && (
          <div className="empty-actions">
            <button className="btn primary" onClick={add.cloudDownload}>
              <Icon name="link" size={18} />
              {t('cloud.title')}
            </button>
            <button className="btn" onClick={add.pickFiles}>
              <Icon name="upload" size={18} />
              {t('uploads.files')}
            </button>
          </div>
        )}
      </EmptyState>
    );
  } else {
    body = (
      <FileView
        files={files}
        viewType={mode.viewType}
        view={search ? 'search' : view}
        keyword={search?.name}
        showLocation={!!search}
        onDropInto={search ? undefined : dropInto}
        backgroundMenu={backgroundMenu}
        onEndReached={listing.loadMore}
        order={mode.orderType}
        onOrder={(orderType) => useDisplayMode.getState().update(modeKey, { orderType })}
        label={search ? t('search.results') : (ancestors.data?.at(-1)?.name ?? rootLabel)}
      />
    );
  }

  return (
    <section
      className="page"
      onDragOver={onDragOver}
      onDragLeave={(e) => e.currentTarget === e.target && setDropping(false)}
      onDrop={(e) => void onDrop(e)}
    >
      {dropping && (
        <div className="drop-hint">
          <span className="drop-label">{t('uploads.dropHere')}</span>
        </div>
      )}
      <div className="toolbar">
        {/* The selection takes the path's place, beside "+ New" and the display controls, which stay in reach. */}
        {selectedFiles.length > 0 ? (
          <SelectionBar files={selectedFiles} view={search ? 'search' : view} inline />
        ) : search ? (
          <h1 className="crumb current">{search.name ? t('search.resultsFor', { term: search.name }) : t('search.results')}</h1>
        ) : (
          <Breadcrumbs root={root} rootLabel={rootLabel} chain={id ? (ancestors.data ?? []) : []} />
        )}
        <div className="toolbar-end">
          {canCreate && <NewMenu actions={add} />}
          {canCreate && picker.inputs}
          <DisplayControls modeKey={modeKey} mode={mode} />
        </div>
      </div>
      {search && <SearchFilters filter={search} />}
      {body}
      {view === 'all' && !search && <BeginnerGuide />}
    </section>
  );
}

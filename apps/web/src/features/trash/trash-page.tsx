/** Trash: what the user trashed, with the time left before it is deleted for good; restore, delete, empty. */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { useDialog } from '../../app/dialogs/dialog-store';
import { DisplayControls } from '../files/display-controls';
import { useDisplayMode } from '../files/display-mode-store';
import { EmptyState, Skeleton } from '../files/file-manager-page';
import { emptyTrash } from '../files/file-mutations';
import { FileView } from '../files/file-view';
import { TRASH_FILTERS } from '../files/files-api';
import { SelectionBar } from '../files/selection-bar';
import { pickSelected, useSelection } from '../files/selection-store';
import { useSearchListing, useServerListing } from '../files/use-listing';
import { SearchFilters } from '../search/search-filters';
import { readSearch } from '../search/search-state';

export function TrashPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const search = readSearch(params);
  useDisplayMode((s) => s.global);
  const mode = useDisplayMode.getState().modeFor('trash');
  const selected = useSelection((s) => s.selected);
  const openDialog = useDialog((s) => s.open);
  const all = useServerListing(TRASH_FILTERS, { key: ['trash'], order: mode.orderType, pin: mode.pinFoldersTop, locale: i18n.language });
  const found = useSearchListing(search, { trash: true, order: mode.orderType, pin: mode.pinFoldersTop, locale: i18n.language });
  const { files, error, loadMore } = search ? found : all;

  const confirmEmpty = () =>
    openDialog({
      type: 'confirm',
      title: t('trash.emptyTitle'),
      body: t('trash.emptyBody'),
      confirmLabel: t('trash.empty'),
      danger: true,
      onConfirm: emptyTrash,
    });

  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{search?.name ? t('search.resultsFor', { term: search.name }) : t('nav.trash')}</h1>
        <div className="toolbar-end">
          <button className="btn danger" onClick={confirmEmpty} disabled={!all.files?.length}>
            {t('trash.empty')}
          </button>
          <DisplayControls modeKey="trash" mode={mode} />
        </div>
        <SelectionBar files={pickSelected(files, selected)} view="trash" />
      </div>
      {search && <SearchFilters filter={search} />}
      <p className="muted page-hint">{t('trash.hint')}</p>
      {error && !files?.length ? (
        <EmptyState icon="trash" title={t('files.loadFailed')} hint={errorMessage(error)} />
      ) : !files ? (
        <Skeleton />
      ) : files.length === 0 ? (
        <EmptyState icon="trash" title={search ? t('search.noResults') : t('trash.emptyState')} />
      ) : (
        <FileView
          files={files}
          viewType="list"
          view="trash"
          keyword={search?.name}
          showTimeLeft
          onEndReached={loadMore}
          label={t('nav.trash')}
        />
      )}
    </section>
  );
}

/**
 * /s/{shareId}: what a share link shows anyone who has it. The pass code form when the link has one, then the shared
 * items and their folders, downloads, and "save to my drive" (signing in first, then coming back here).
 */
import './share-page.css';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { formatSize } from '@haul/shared/plain';
import type { DriveFile, ShareStatus, ShareView } from '@haul/shared';
import { EndSentinel } from '../../components/end-sentinel';
import { errorMessage } from '../../lib/error-message';
import { useSessionStore } from '../auth/session-store';
import { EmptyState, Skeleton } from '../files/file-manager-page';
import { iconFor } from '../files/file-item';
import { clickDownload } from '../files/file-mutations';
import { downloadShareZip } from '../files/zip-download';
import { isFolder } from '../files/files-api';
import { formatTime } from '../files/format-time';
import { Icon } from '../../components/icon';
import { Logo } from '../layout/logo';
import { SettingsMenu } from '../layout/settings-menu';
import { toast } from 'sonner';
import { shareFileInfo, viewShare } from '../shares/shares-api';
import { openInViewer } from '../viewer/viewer-store';
import { ViewerHost } from '../viewer/viewer-host';
import { ReportDialog } from './report-dialog';
import { SaveDialog } from './save-dialog';
import { SingleShareItem } from './single-share-item';
import { keepPicks, takePicks } from './share-picks';
import { loadShareToken, onShareTokenKept, saveShareToken } from './share-token';
import { usePublicShare } from './use-public-share';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';

const NEEDS_CODE: ShareStatus[] = ['PASS_CODE_EMPTY', 'PASS_CODE_ERROR'];

export function PublicSharePage() {
  const { shareId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const { t, i18n } = useTranslation();
  const session = useSessionStore((s) => s.session);
  const [token, setToken] = useState(() => loadShareToken(shareId));
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [saving, setSaving] = useState(false);
  // The report dialog: about the share as a whole, or about the one item shown.
  const [reporting, setReporting] = useState<{ file?: { id: string; name: string } } | null>(null);
  const folderParam = params.get('folder') || undefined;
  // The share's front page; inside a folder only as far as it is already loaded (it tells whether one folder is shared).
  const top = usePublicShare(shareId, token, undefined, i18n.language, !folderParam);
  // One folder shared: its contents are the front page, as a drive opens a shared folder, not a list of one row.
  const rootFolder = soleFolder(top.view, top.files);
  const folderId = folderParam ?? rootFolder?.id;
  const inner = usePublicShare(shareId, token, folderId, i18n.language, !!folderId);
  const { view, files, error, loading, loadMore } = folderId ? inner : top;
  const source = useMemo(() => ({ kind: 'share' as const, access: { shareId, token } }), [shareId, token]);
  const { access } = source;

  useEffect(() => setPicked(new Set()), [folderId]);
  // A pass code entered in another tab of this share opens this one too.
  useEffect(() => onShareTokenKept(shareId, setToken), [shareId]);
  // A kept token the share no longer takes (its code changed): forget it, unless another tab has kept a new one.
  const askedAgain = !!token && !!view && NEEDS_CODE.includes(view.share_status);
  useEffect(() => {
    if (askedAgain && loadShareToken(shareId) === token) saveShareToken(shareId, '');
  }, [askedAgain, shareId, token]);
  // Back from signing in to save: carry on where the visitor left off, with the items they had ticked.
  useEffect(() => {
    if (session && params.get('save') === '1' && view?.share_status === 'OK') {
      setPicked(new Set(takePicks(shareId)));
      setSaving(true);
      params.delete('save');
      setParams(params, { replace: true });
    }
  }, [session, view?.share_status, params, setParams, shareId]);

  const open = (f: DriveFile) => {
    if (isFolder(f)) setParams({ folder: f.id });
    else if (!openInViewer(files ?? [f], f, 'share_page', source)) void download(f);
  };
  const download = async (f: DriveFile) => {
    try {
      const info = await shareFileInfo(access, f.id);
      clickDownload(info.web_content_link, info.name);
    } catch (err) {
      toast.error(errorMessage(err) || t('files.cannotDownload'));
    }
  };
  const startSave = () => {
    if (session) return setSaving(true);
    keepPicks(shareId, [...picked]);
    const back = `/s/${shareId}?${new URLSearchParams({ ...(folderParam ? { folder: folderParam } : {}), save: '1' })}`;
    window.location.assign(`/drive/login?${new URLSearchParams({ redirect: back })}`);
  };

  let body;
  let single = false;
  if (loading) body = <Skeleton />;
  else if (error || !view) body = <EmptyState icon="shared" title={t('files.loadFailed')} hint={errorMessage(error)} />;
  else if (NEEDS_CODE.includes(view.share_status)) {
    body = (
      <PassCodeForm
        shareId={shareId}
        wrong={view.share_status === 'PASS_CODE_ERROR'}
        onToken={(tk) => {
          saveShareToken(shareId, tk);
          setToken(tk);
        }}
      />
    );
  } else if (view.share_status !== 'OK') {
    body = <EmptyState icon="shared" title={t(`publicShare.status.${view.share_status}`, { defaultValue: view.share_status_text })} />;
  } else if (!folderId && files?.length === 1 && !isFolder(files[0]!)) {
    // One file shared: the file itself, not a table of one row.
    const only = files[0]!;
    single = true;
    body = (
      <>
        <SingleShareItem
          view={view}
          file={only}
          source={source}
          onOpen={() => open(only)}
          onDownload={() => void download(only)}
          onSave={startSave}
          onReport={() => setReporting({ file: { id: only.id, name: only.name } })}
        />
        {saving && <SaveDialog access={access} fileIds={[]} onClose={() => setSaving(false)} />}
      </>
    );
  } else {
    const chosen = files?.filter((f) => picked.has(f.id)) ?? [];
    body = (
      <>
        <div className="public-head">
          <div>
            <h1>{view.title}</h1>
            <p className="muted">
              {t('publicShare.sharedBy', { name: view.user_info.nickname })} ·{' '}
              {view.expiration_at === '-1'
                ? t('share.neverExpires')
                : t('publicShare.until', { date: formatTime(view.expiration_at, i18n.language) })}
            </p>
          </div>
          <div className="public-actions">
            {chosen.length === 1 && !isFolder(chosen[0]!) ? (
              <button className="btn" onClick={() => void download(chosen[0]!)}>
                <Icon name="download" size={18} /> {t('actions.download')}
              </button>
            ) : (
              // The ticked items, or else what this page shows (the folder opened, or the whole share), as one zip.
              <button className="btn" onClick={() => void downloadShareZip(access, picked.size ? [...picked] : folderParam ? [folderParam] : [])}>
                <Icon name="download" size={18} /> {picked.size ? t('zip.downloadChosen', { count: picked.size }) : t('zip.downloadAll')}
              </button>
            )}
            <button className="btn primary" onClick={startSave}>
              {picked.size ? t('publicShare.saveChosen', { count: picked.size }) : t('publicShare.saveAll')}
            </button>
          </div>
        </div>
        <nav className="crumbs" aria-label={t('files.breadcrumbs')}>
          <button className="crumb" onClick={() => setParams({})}>
            {rootFolder?.name ?? t('publicShare.files')}
          </button>
          {(rootFolder && view.ancestors[0]?.id === rootFolder.id ? view.ancestors.slice(1) : view.ancestors).map((a) => (
            <span key={a.id}>
              <Icon name="chevron" size={14} />
              <button className="crumb" onClick={() => setParams({ folder: a.id })}>
                {a.name}
              </button>
            </span>
          ))}
        </nav>
        {files && files.length === 0 ? (
          <EmptyState icon="folder" title={t('files.emptyFolder')} />
        ) : (
          <ul className="public-list" aria-label={t('publicShare.files')}>
            {files?.map((f) => (
              <li key={f.id} className={picked.has(f.id) ? 'selected' : undefined}>
                <input
                  type="checkbox"
                  aria-label={f.name}
                  checked={picked.has(f.id)}
                  onChange={() =>
                    setPicked((prev) => {
                      const next = new Set(prev);
                      if (!next.delete(f.id)) next.add(f.id);
                      return next;
                    })
                  }
                />
                <span className={`ficon ${iconFor(f)}`}>
                  <Icon name={iconFor(f)} />
                </span>
                <button className="public-name" onClick={() => open(f)} title={f.name}>
                  {f.name}
                </button>
                <span className="muted">{isFolder(f) ? '' : formatSize(f.size, 1, i18n.language)}</span>
                <span className="muted hide-mobile">{formatTime(f.modified_time, i18n.language)}</span>
                {!isFolder(f) && (
                  <button
                    className="icon-btn"
                    aria-label={t('publicShare.downloadOf', { name: f.name })}
                    title={t('publicShare.downloadOf', { name: f.name })}
                    onClick={() => void download(f)}
                  >
                    <Icon name="download" />
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <EndSentinel onVisible={loadMore} />
        {/* The ticked ids themselves: those kept over a sign-in may be on a page of the folder not loaded yet. */}
        {saving && <SaveDialog access={access} fileIds={[...picked]} onClose={() => setSaving(false)} />}
      </>
    );
  }

  return (
    <div className="public-share">
      <header className="public-bar">
        <a href="/drive/" className="public-logo" aria-label="Haul">
          <Logo />
        </a>
        <div className="public-bar-end">
          <SettingsMenu />
          {session ? (
            <a className="btn small" href="/drive/all">
              {t('publicShare.myDrive')}
            </a>
          ) : (
            <a className="btn small" href={`/drive/login?${new URLSearchParams({ redirect: `/s/${shareId}` })}`}>
              {t('auth.signIn')}
            </a>
          )}
        </div>
      </header>
      <main className={single ? 'public-main single' : 'public-main'}>{body}</main>
      {/* Only a share the visitor can open can be reported: the server asks for what opened it. */}
      {!loading && view?.share_status === 'OK' && (
        <footer className="public-foot">
          <button type="button" className="link report-link" onClick={() => setReporting({})}>
            <Icon name="alert" size={14} />
            {t('shareReport.open')}
          </button>
        </footer>
      )}
      {reporting && <ReportDialog shareId={shareId} token={token} file={reporting.file} onClose={() => setReporting(null)} />}
      <ViewerHost />
    </div>
  );
}

/** The one folder a share holds, when that is all it holds; known once the front page is loaded. */
function soleFolder<F extends Pick<DriveFile, 'kind'>>(view: ShareView | undefined, files: F[] | undefined): F | undefined {
  const only = view?.share_status === 'OK' && files?.length === 1 ? files[0] : undefined;
  return only && isFolder(only) ? only : undefined;
}

function PassCodeForm({ shareId, wrong, onToken }: { shareId: string; wrong: boolean; onToken: (token: string) => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const { busy, error, setError, submit: check } = useSubmit('', wrong ? t('publicShare.status.PASS_CODE_ERROR') : '');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return setError(t('publicShare.enterCode'));
    await check(async () => {
      const v = await viewShare({ shareId, passCode: code.trim() }, {});
      if (v.share_status === 'OK') onToken(v.pass_code_token);
      else setError(t(`publicShare.status.${v.share_status}`, { defaultValue: v.share_status_text }));
    }, errorMessage);
  };
  return (
    <form className="pass-code-card" onSubmit={submit} noValidate>
      <Icon name="shared" size={40} />
      <h1>{t('publicShare.needsCode')}</h1>
      <label className="field">
        <span>{t('share.passCode')}</span>
        <input
          autoFocus
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={!!error}
        />
      </label>
      <FormError error={error} />
      <button className="btn primary" type="submit" disabled={busy}>
        {t('publicShare.open')}
      </button>
    </form>
  );
}

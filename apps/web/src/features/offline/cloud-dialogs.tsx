/**
 * Adding cloud downloads (links, magnet links or a .torrent file, whose files the person may choose, into a chosen
 * folder) and removing finished ones, with or without their files.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Breadcrumb, DriveTask } from '@haul/shared';
import { Frame } from '../../app/dialogs/dialog-frame';
import { useDialog, type DialogState } from '../../app/dialogs/dialog-store';
import { runChange } from '../files/file-mutations';
import { followCloudTasks } from './cloud-task-poll';
import { FolderBrowser } from '../files/folder-picker';
import { useUploads } from '../uploads/upload-store';
import { errorMessage } from '../../lib/error-message';
import { Icon } from '../../components/icon';
import {
  addCloudDownloads,
  badLinks,
  checkUrl,
  fileToBase64,
  inspectTorrent,
  isTorrentFile,
  removeCloudTasks,
  torrentFileOf,
  type TorrentListing,
} from './offline-api';
import { TorrentFiles } from './torrent-files';
import { CloudSignIn, credentialsOf, NO_SIGN_IN, SaveAs, type SignIn } from './cloud-sign-in';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { reportLimit } from '../limits/limit-store';
import { expectLanding, screenAfterAdd } from './after-add';
import { initialOpenWhenReady, presetOpenWhenReady, useOpenWhenReady } from './open-when-ready';
import { keepForLater } from '../bookmarks/bookmarks-api';

export function CloudDownloadDialog({ d }: { d: Extract<DialogState, { type: 'cloud-download' }> }) {
  const { t } = useTranslation();
  const close = useDialog((s) => s.close);
  const [text, setText] = useState(d.text ?? '');
  // Reading a torrent's file list; its failure is the dialog's error, as the link checks are.
  const { busy: inspecting, error, setError, submit: read } = useSubmit();
  const [busy, setBusy] = useState(false);
  const [path, setPath] = useState<Breadcrumb[]>(d.path);
  const [choosing, setChoosing] = useState(false);
  // A torrent's file list (from a .torrent file, or a single magnet link) and the files kept.
  const [torrent, setTorrent] = useState<{ base64?: string; fileName?: string; listing: TorrentListing } | null>(null);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const fileInput = useRef<HTMLInputElement>(null);
  const [signIn, setSignIn] = useState<SignIn>(NO_SIGN_IN);
  const [saveAs, setSaveAs] = useState('');
  const [openWhenReady, setOpenWhenReady] = useState(initialOpenWhenReady);
  const remember = useOpenWhenReady((s) => s.remember);
  // A link's preset is for this dialog only.
  useEffect(() => presetOpenWhenReady(null), []);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const target = path.at(-1);
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const singleMagnet = lines.length === 1 && /^magnet:\?/i.test(lines[0]!) ? lines[0]! : null;
  const singleTorrentLink = lines.length === 1 && /^https?:\/\/\S+\.torrent(?:[?#]\S*)?$/i.test(lines[0]!) ? lines[0]! : null;
  // Sign-in and headers go with http(s) links only; a chosen name with one link only.
  const httpOnly = !torrent && lines.length > 0 && lines.every((l) => /^https?:\/\//i.test(l));
  const singleHttp = httpOnly && lines.length === 1;

  const inspect = (source: { url: string } | { torrent: string }, base64?: string, fileName?: string) =>
    read(async () => {
      const listing = await inspectTorrent(source);
      setTorrent({ base64, fileName, listing });
      setChosen(new Set(listing.files.map((f) => f.index)));
    }, errorMessage);
  // A .torrent link is read by the server's URL checker and then stands in for the link, as a picked file would.
  const readTorrentLink = (link: string) =>
    read(async () => {
      const check = await checkUrl(link);
      const file = torrentFileOf(check);
      if (!file || !check.torrent) throw new Error(t('cloud.notTorrent', { name: check.name }));
      setText('');
      setTorrent({ base64: check.torrent_file, fileName: file.name, listing: check.torrent });
      setChosen(new Set(check.torrent.files.map((f) => f.index)));
    }, errorMessage);
  const pickTorrent = async (file: File | undefined) => {
    if (!file) return;
    if (!isTorrentFile(file)) return setError(t('cloud.notTorrent', { name: file.name }));
    const base64 = await fileToBase64(file);
    await inspect({ torrent: base64 }, base64, file.name);
  };

  // A .torrent handed over from outside (the share target, the file handler) is read as if picked here.
  const handed = d.torrentFile;
  useEffect(() => {
    if (handed) void pickTorrent(handed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per handed file
  }, [handed]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const bad = badLinks(text);
    if (bad.length) return setError(t('cloud.badLinks', { count: bad.length, first: bad[0]!.slice(0, 80) }));
    if (torrent && chosen.size === 0) return setError(t('cloud.noneChosen'));
    // The file choice applies to the torrent on show: the .torrent file, or the one magnet link it was read from.
    const fileIds = torrent && chosen.size < torrent.listing.files.length ? [...chosen].sort((a, b) => a - b) : undefined;
    const count = lines.length + (torrent?.base64 ? 1 : 0);
    setBusy(true);
    let limited = false;
    let made: DriveTask[] = [];
    const ok = await runChange(() =>
      addCloudDownloads(text, target?.id ?? '', { base64: torrent?.base64, fileIds }, {
        name: singleHttp ? saveAs.trim() : undefined,
        credentials: httpOnly ? credentialsOf(signIn) : undefined,
      }).then(
        (answer) => {
          made = answer.tasks ?? (answer.task ? [answer.task] : []);
        },
        (err: unknown) => {
          // A limit opens its dialog instead of a toast; what was typed stays for after the upgrade.
          limited = reportLimit(err);
          throw limited ? Object.assign(new Error(''), { name: 'AbortError' }) : err;
        },
      ),
    );
    setBusy(false);
    if (limited) setError(t('cloud.limited'));
    if (!ok) return;
    close();
    // The new files show (or open) as they land; the transfer list, with the progress, is one click away.
    toast.success(t('cloud.added', { count }), {
      action: { label: t('deepLinks.showTransfers'), onClick: () => useUploads.setState({ panelOpen: true, tab: 'cloud' }) },
    });
    expectLanding(made, openWhenReady);
    followCloudTasks();
    const next = screenAfterAdd(pathname, target?.id ?? '');
    if (next) void navigate(next);
  };

  // The typed links become bookmarks, fetched later from the bookmarks page; nothing is downloaded now.
  const keep = async () => {
    const bad = badLinks(text);
    if (bad.length) return setError(t('cloud.badLinks', { count: bad.length, first: bad[0]!.slice(0, 80) }));
    setBusy(true);
    const ok = await keepForLater(lines.map((url) => ({ url })), 'dialog');
    setBusy(false);
    if (ok) close();
  };

  return (
    <Frame title={t('cloud.title')} wide>
      <form
        onSubmit={submit}
        onDragOver={(e) => e.dataTransfer.types.includes('Files') && e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          void pickTorrent(e.dataTransfer.files[0]);
        }}
      >
        <label className="field">
          <span>{t('cloud.links')}</span>
          <textarea
            autoFocus
            rows={4}
            value={text}
            placeholder={t('cloud.placeholder')}
            spellCheck={false}
            onChange={(e) => {
              setText(e.target.value);
              setError('');
              // A file list read from a magnet link belongs to that link only.
              if (torrent && !torrent.base64) setTorrent(null);
            }}
            aria-invalid={!!error}
          />
        </label>
        <div className="cloud-torrent">
          <button type="button" className="btn" onClick={() => fileInput.current?.click()} disabled={inspecting}>
            <Icon name="file" size={18} />
            {torrent?.fileName ?? t('cloud.torrentFile')}
          </button>
          {singleMagnet && !torrent && (
            <button type="button" className="link" onClick={() => void inspect({ url: singleMagnet })} disabled={inspecting}>
              {t('cloud.chooseFiles')}
            </button>
          )}
          {singleTorrentLink && !torrent && (
            <button type="button" className="link" onClick={() => void readTorrentLink(singleTorrentLink)} disabled={inspecting}>
              {t('cloud.chooseFiles')}
            </button>
          )}
          {inspecting && <span className="muted">{t('cloud.reading')}</span>}
          <input
            ref={fileInput}
            type="file"
            accept=".torrent,application/x-bittorrent"
            hidden
            data-testid="torrent-file"
            onChange={(e) => {
              void pickTorrent(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
        {torrent && <TorrentFiles listing={torrent.listing} chosen={chosen} onChange={setChosen} />}
        {singleHttp && <SaveAs value={saveAs} onChange={setSaveAs} />}
        {httpOnly && <CloudSignIn value={signIn} onChange={setSignIn} />}
        <FormError error={error} />
        <div className="cloud-target">
          <span className="muted">{t('cloud.saveTo')}</span>
          <strong>{target?.name ?? t('nav.all')}</strong>
          <button type="button" className="link" onClick={() => setChoosing(!choosing)} aria-expanded={choosing}>
            {choosing ? t('cloud.doneChoosing') : t('cloud.change')}
          </button>
        </div>
        {choosing && (
          <div className="picker">
            <FolderBrowser path={path} onPath={setPath} />
          </div>
        )}
        <label className="check-field">
          <input
            type="checkbox"
            checked={openWhenReady}
            onChange={(e) => {
              setOpenWhenReady(e.target.checked);
              remember(e.target.checked);
            }}
          />
          {t('deepLinks.openWhenReady')}
        </label>
        <div className="dialog-actions">
          <Dialog.Close className="btn" type="button">
            {t('common.cancel')}
          </Dialog.Close>
          <button className="btn" type="button" onClick={() => void keep()} disabled={busy || lines.length === 0}>
            {t('bookmarksPage.keep')}
          </button>
          <button className="btn primary" type="submit" disabled={busy || inspecting || (!text.trim() && !torrent?.base64)}>
            {t('cloud.start')}
          </button>
        </div>
      </form>
    </Frame>
  );
}

export function RemoveCloudTasksDialog({ d }: { d: Extract<DialogState, { type: 'remove-cloud-tasks' }> }) {
  const { t } = useTranslation();
  const close = useDialog((s) => s.close);
  const [withFiles, setWithFiles] = useState(false);
  const [busy, setBusy] = useState(false);
  const hasFiles = d.tasks.some((x) => x.file_id);
  return (
    <Frame title={t('cloud.removeTitle', { name: d.tasks.map((x) => x.name).join(', ') })}>
      <p>{t('cloud.removeBody')}</p>
      {hasFiles && (
        <label className="check-field">
          <input type="checkbox" checked={withFiles} onChange={(e) => setWithFiles(e.target.checked)} />
          {t('cloud.removeFiles')}
        </label>
      )}
      <div className="dialog-actions">
        <Dialog.Close className="btn" type="button">
          {t('common.cancel')}
        </Dialog.Close>
        <button
          className="btn danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await runChange(() =>
              removeCloudTasks(
                d.tasks.map((x) => x.id),
                withFiles,
              ),
            );
            followCloudTasks();
            close();
          }}
        >
          {t('cloud.remove')}
        </button>
      </div>
    </Frame>
  );
}

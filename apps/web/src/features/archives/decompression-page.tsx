/**
 * /decompression/:fileId: an archive's entries as a tree (sizes, dates, a lock on encrypted ones), without unpacking
 * anything; a password prompt when the archive needs one; the entries to unpack and where; then the task runs in the
 * transfer list and the result page follows it. The same page stands alone at /web-decompression/:fileId.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { formatSize } from '@haul/shared/plain';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { track } from '../../lib/stats';
import { getFile } from '../files/files-api';
import { useUploads } from '../uploads/upload-store';
import { buildTree, filePaths } from './archive-tree';
import { listArchive, NAME_ENCODINGS, startDecompress } from './archives-api';
import { useArchiveBase } from './archive-base';
import { ArchiveTreeView } from './archive-tree-view';
import { RadioDot } from './radio-dot';
import { TickBox } from './tick-box';
import { defaultNameEncoding } from './name-encodings';
import { DecompressPremiumPrompt } from './premium-prompt';
import './archives.css';

const wrongPassword = (err: unknown) => isApiError(err) && err.code === 'archive_password_wrong';
/** The server keeps cloud decompression for premium accounts. */
const premiumOnly = (err: unknown) => isApiError(err) && err.code === 'permission_denied';


export function DecompressionPage() {
  const { t, i18n } = useTranslation();
  const { fileId = '' } = useParams();
  const navigate = useNavigate();
  const base = useArchiveBase();
  // The password the listing was asked with; the field keeps what is being typed.
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const [intoNew, setIntoNew] = useState(true);
  // Names not in UTF-8 are read first in the code page zips get on a computer in the interface's language.
  const [encoding, setEncoding] = useState(() => defaultNameEncoding(i18n.language));
  const [needsPremium, setNeedsPremium] = useState(false);
  const { busy, error, setError, submit } = useSubmit();
  // Unpacking refused the password (a zip's listing is open, its entries are not): asked again. null: not refused.
  const [rejected, setRejected] = useState<string | null>(null);
  const file = useQuery({ queryKey: ['file', fileId], queryFn: () => getFile(fileId) });
  const listing = useQuery({ queryKey: ['archive-list', fileId, password, encoding], queryFn: () => listArchive(fileId, password, encoding), retry: false });
  const tree = useMemo(() => buildTree(listing.data?.files ?? []), [listing.data]);
  const all = useMemo(() => tree.flatMap(filePaths), [tree]);
  const chosen = selected ?? new Set(all);
  // Asked for when the listing needs it, or when entries are locked and none was given (or unpacking refused it).
  const needsPassword = wrongPassword(listing.error) || (!!listing.data?.has_encrypted && !password);
  const wasWrong = (wrongPassword(listing.error) && !!password) || !!rejected;

  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setRejected(null);
    setPassword(typed);
  };
  const start = () =>
    submit(
      async () => {
        const paths = chosen.size === all.length ? undefined : [...chosen];
        // Beside the archive: its folder, known once the file has loaded (the button waits for it).
        const parentId = intoNew ? undefined : file.data!.parent_id;
        track('archive_unzip_request');
        const { task } = await startDecompress(fileId, password, encoding, paths, parentId);
        useUploads.getState().setTab('cloud');
        useUploads.getState().setPanelOpen(true);
        void navigate(`${base}/${fileId}/result?task=${encodeURIComponent(task.id)}`);
      },
      (err) => {
        if (wrongPassword(err)) {
          setRejected(password);
          setPassword('');
          setTyped('');
        } else if (premiumOnly(err)) setNeedsPremium(true);
        else return errorMessage(err);
      },
    );

  const name = listing.data?.file_name ?? file.data?.name ?? '';
  return (
    <section className="page archive-page">
      <div className="toolbar">
        <h1 className="crumb current">{name || t('archives.title')}</h1>
      </div>
      {listing.isPending && <p className="muted">{t('archives.reading')}</p>}
      {(needsPremium || premiumOnly(listing.error)) && <DecompressPremiumPrompt />}
      {listing.isError && !wrongPassword(listing.error) && !premiumOnly(listing.error) && <FormError error={errorMessage(listing.error)} />}
      {needsPassword && (
        <form className="archive-password" onSubmit={submitPassword}>
          <p role={wasWrong ? 'alert' : undefined}>{wasWrong ? t('archives.wrongPassword') : t('archives.needsPassword')}</p>
          <label>
            {t('archives.password')}
            <input type="password" autoFocus autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </label>
          <button className="btn primary" type="submit" disabled={!typed}>
            {t('archives.unlock')}
          </button>
        </form>
      )}
      {listing.data && !needsPremium && (
        <>
          <p className="muted">
            {t('archives.summary', { count: all.length, size: formatSize(Number(listing.data.total_size)) })}
          </p>
          <div className="archive-tools">
            <label className="field archive-encoding">
              <span>{t('archives.encoding')}</span>
              <select value={encoding} onChange={(e) => setEncoding(e.target.value)}>
                <option value="">{t('archives.encodingAuto')}</option>
                {NAME_ENCODINGS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label className="archive-all">
              <TickBox checked={chosen.size === all.length && all.length > 0} mixed={chosen.size > 0 && chosen.size < all.length} onChange={(on) => setSelected(new Set(on ? all : []))} />
              {t('archives.selectAll')}
            </label>
          </div>
          <ArchiveTreeView nodes={tree} chosen={chosen} onChange={setSelected} />
          <fieldset className="archive-target">
            <legend>{t('archives.target')}</legend>
            <label>
              <RadioDot name="target" checked={intoNew} onChange={() => setIntoNew(true)} />
              {t('archives.newFolder', { name: listing.data.folder_name })}
            </label>
            <label>
              <RadioDot name="target" checked={!intoNew} onChange={() => setIntoNew(false)} />
              {t('archives.sameFolder')}
            </label>
          </fieldset>
          <FormError error={error} />
          <p>
            <button className="btn primary" type="button" disabled={busy || chosen.size === 0 || (!intoNew && !file.data)} onClick={() => void start()}>
              {t('archives.start', { count: chosen.size })}
            </button>
          </p>
        </>
      )}
    </section>
  );
}

/**
 * The reported share's files, for the operator to see what was reported (a pass code does not stand in the way): its
 * items, a folder opened inside it, and the chosen file shown in place (a picture, a video, a song; anything else as a
 * download). Only while the report is open; each look is in the audit log and in the owner's security log, which is
 * said above the list.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '@haul/shared/plain';
import { PagedList } from '../../components/paged-list';
import { reportFiles, reportFilesKey, type ReportFile } from './admin-reports-api';

const kindOf = (f: ReportFile) => (/^image\//.test(f.mime_type) ? 'image' : /^video\//.test(f.mime_type) ? 'video' : /^audio\//.test(f.mime_type) ? 'audio' : 'other');

function Shown({ file }: { file: ReportFile }) {
  const { t } = useTranslation();
  const kind = kindOf(file);
  return (
    <figure className="report-shown" aria-label={t('adminReports.content.shown', { name: file.name })}>
      {kind === 'image' && <img src={file.link} alt={file.name} />}
      {kind === 'video' && <video src={file.link} controls preload="metadata" />}
      {kind === 'audio' && <audio src={file.link} controls preload="metadata" />}
      <figcaption>
        <a className="link" href={file.link} download={file.name}>
          {t('adminReports.content.download', { name: file.name })}
        </a>
      </figcaption>
    </figure>
  );
}

export function ReportFiles({ reportId }: { reportId: string }) {
  const { t, i18n } = useTranslation();
  const [path, setPath] = useState<{ id: string; name: string }[]>([]);
  const [shown, setShown] = useState<ReportFile | null>(null);
  const parentId = path.at(-1)?.id ?? '';
  const open = (f: ReportFile) => (f.kind === 'drive#folder' ? (setShown(null), setPath([...path, { id: f.id, name: f.name }])) : setShown(f));
  return (
    <section className="report-files" aria-label={t('adminReports.content.title')}>
      <p className="muted small">{t('adminReports.content.logged')}</p>
      {path.length > 0 && (
        <nav className="report-files-path" aria-label={t('adminReports.content.where')}>
          <button type="button" className="link" onClick={() => (setShown(null), setPath([]))}>
            {t('adminReports.content.top')}
          </button>
          {path.map((p, i) => (
            <span key={p.id}>
              {' / '}
              <button type="button" className="link" onClick={() => (setShown(null), setPath(path.slice(0, i + 1)))} disabled={i === path.length - 1}>
                {p.name}
              </button>
            </span>
          ))}
        </nav>
      )}
      <PagedList
        queryKey={reportFilesKey(reportId, parentId)}
        load={(token, signal) => reportFiles(reportId, parentId, token, signal)}
        items={(p) => p.files}
        itemKey={(f) => f.id}
        empty={t('adminReports.content.empty')}
        className="report-files-list"
        label={t('adminReports.content.title')}
        moreLabel={t('adminMoney.loadMore')}
        header={(first) => (first.pass_code ? <p className="muted small">{t('adminReports.content.passCode')}</p> : null)}
      >
        {(f) => (
          <li>
            <button type="button" className="link" onClick={() => open(f)} aria-pressed={shown?.id === f.id}>
              {f.name}
            </button>
            <small className="muted">{f.kind === 'drive#folder' ? t('adminReports.content.folder') : formatSize(f.size, 1, i18n.language)}</small>
            {f.sensitive && <span className="admin-badge off">{t('adminReports.fileNotShareable')}</span>}
          </li>
        )}
      </PagedList>
      {shown && <Shown file={shown} />}
    </section>
  );
}

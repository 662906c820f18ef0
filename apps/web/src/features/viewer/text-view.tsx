/**
 * Text files in the viewer: the first 2 MiB read through the download link and shown as plain text in a <pre>, never
 * as markup; the encoding is UTF-8 when the bytes allow, else the legacy one of the reader's language.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import { decodeText } from './text-decode';
import { readHead } from './viewer-api';
import type { MediaFault } from './viewer-errors';

/** How much of a text file is read: enough for any note or log worth reading on screen. */
export const TEXT_CAP = 2 * 1024 * 1024;
const WRAP_KEY = 'pp_web_text_wrap';

export function TextView({ file, onError }: { file: DriveFile; onError: (fault?: MediaFault) => void }) {
  const { t, i18n } = useTranslation();
  const [shown, setShown] = useState<{ text: string; encoding: string; bytes: number; cut: boolean } | null>(null);
  const [wrap, setWrap] = useState(() => localStorage.getItem(WRAP_KEY) !== '0');
  const pre = useRef<HTMLPreElement>(null);
  const link = file.web_content_link;

  useEffect(() => {
    const abort = new AbortController();
    readHead(link, Number(file.size), TEXT_CAP, abort.signal).then(
      ({ bytes, cut }) => {
        const decoded = decodeText(bytes, cut, i18n.language);
        if (decoded) setShown({ ...decoded, bytes: bytes.length, cut });
        else onError();
      },
      () => !abort.signal.aborted && onError({ link }),
    );
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one read per file and link; `onError` is new every render, and a language change reads nothing again
  }, [link]);

  // Focused, the text scrolls with the arrow keys and Page keys of the browser.
  const read = shown !== null;
  useEffect(() => pre.current?.focus({ preventScroll: true }), [read]);

  if (!shown) return <div className="viewer-spinner" role="status" aria-label={t('common.loading')} />;
  const toggleWrap = () => {
    localStorage.setItem(WRAP_KEY, wrap ? '0' : '1');
    setWrap(!wrap);
  };
  return (
    <div className="viewer-text">
      <div className="viewer-text-bar">
        <span className="muted">
          {shown.cut ? t('viewer.textCut', { shown: formatSize(shown.bytes, 1, i18n.language), size: formatSize(file.size, 1, i18n.language) }) : ''}
          {shown.encoding !== 'utf-8' ? ` ${t('viewer.textEncoding', { encoding: shown.encoding })}` : ''}
        </span>
        <button className="btn small" aria-pressed={wrap} onClick={toggleWrap}>
          {t('viewer.wrapLines')}
        </button>
      </div>
      <pre ref={pre} className={wrap ? 'viewer-scroll wrap' : 'viewer-scroll'} tabIndex={0} aria-label={file.name}>
        {shown.text}
      </pre>
    </div>
  );
}

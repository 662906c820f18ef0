/**
 * PDFs in the viewer: pages drawn by pdf.js onto canvases, one under another in a scrolling column, each drawn only
 * while near the screen; the page being read and the page count above. pdf.js loads with the first PDF opened.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { DriveFile } from '@haul/shared';
import type { PDFDocumentLoadingTask, PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import type { MediaFault } from './viewer-errors';

/** Pages wider than this are not drawn larger: a column that reads well on a wide screen. */
const MAX_PAGE_WIDTH = 960;
/** A4 portrait, until a page says otherwise. */
const DEFAULT_RATIO = 297 / 210;

export function PdfView({ file, onError }: { file: DriveFile; onError: (fault?: MediaFault) => void }) {
  const { t } = useTranslation();
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [width, setWidth] = useState(0);
  const [current, setCurrent] = useState(1);
  const scroller = useRef<HTMLDivElement>(null);
  const link = file.web_content_link;

  useEffect(() => {
    let task: PDFDocumentLoadingTask | undefined;
    let gone = false;
    import('./pdf-document')
      .then(({ openPdf }) => {
        if (gone) return null;
        task = openPdf(link);
        return task.promise;
      })
      .then(
        (d) => !gone && d && setDoc(d),
        () => !gone && onError({ link }),
      );
    return () => {
      gone = true;
      void task?.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one load per link: `onError` is made anew by every render of the viewer
  }, [link]);

  // The column follows the viewer's width.
  const opened = doc !== null;
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const fit = () => setWidth(Math.max(100, Math.min(MAX_PAGE_WIDTH, el.clientWidth - 32)));
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    el.focus({ preventScroll: true });
    return () => observer.disconnect();
  }, [opened]);

  if (!doc) return <div className="viewer-spinner" role="status" aria-label={t('common.loading')} />;

  // The page under the middle of the column is the one being read.
  const onScroll = () => {
    const el = scroller.current!;
    const middle = el.scrollTop + el.clientHeight / 2;
    for (const page of el.querySelectorAll<HTMLElement>('[data-page]')) {
      if (page.offsetTop + page.offsetHeight > middle) return setCurrent(Number(page.dataset.page));
    }
  };
  return (
    <div className="viewer-pdf">
      <div className="viewer-pdf-bar" aria-live="polite">
        {t('viewer.pdfPage', { page: current, total: doc.numPages })}
      </div>
      <div ref={scroller} className="viewer-pdf-pages viewer-scroll" tabIndex={0} aria-label={file.name} onScroll={onScroll}>
        {width > 0 && Array.from({ length: doc.numPages }, (_, i) => <PdfPage key={i} doc={doc} number={i + 1} width={width} root={scroller} />)}
      </div>
    </div>
  );
}

function PdfPage({ doc, number, width, root }: { doc: PDFDocumentProxy; number: number; width: number; root: RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [near, setNear] = useState(false);
  const [ratio, setRatio] = useState(DEFAULT_RATIO);

  // Drawn while within a screen of the visible part; a page far away gives its pixels back.
  useEffect(() => {
    const observer = new IntersectionObserver(([entry]) => setNear(entry!.isIntersecting), { root: root.current, rootMargin: '100% 0px' });
    observer.observe(box.current!);
    return () => observer.disconnect();
  }, [root]);

  useEffect(() => {
    const c = canvas.current!;
    if (!near) {
      c.width = 0;
      c.height = 0;
      return;
    }
    let task: RenderTask | undefined;
    let gone = false;
    doc
      .getPage(number)
      .then((page) => {
        if (gone) return;
        const base = page.getViewport({ scale: 1 });
        setRatio(base.height / base.width);
        const viewport = page.getViewport({ scale: (width / base.width) * (window.devicePixelRatio || 1) });
        c.width = Math.floor(viewport.width);
        c.height = Math.floor(viewport.height);
        task = page.render({ canvas: c, viewport });
        return task.promise;
      })
      // A render cancelled by scrolling away is no error; a page that cannot be drawn stays blank.
      .catch(() => undefined);
    return () => {
      gone = true;
      task?.cancel();
    };
  }, [near, width, number, doc]);

  return (
    <div ref={box} className="viewer-pdf-page" data-page={number} style={{ width, height: Math.round(width * ratio) }}>
      <canvas ref={canvas} role="img" aria-label={t('viewer.pdfPageLabel', { page: number })} />
    </div>
  );
}

/**
 * pdf.js, loaded with the viewer's first PDF: its worker comes from our own origin, and the options that would
 * evaluate code from a file (eval of fonts' functions, XFA forms) are off. No scripting layer is loaded at all.
 */
import { getDocument, GlobalWorkerOptions, type PDFDocumentLoadingTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Starts reading the PDF at `url` (range requests, so the first page shows before a large file has arrived). */
export function openPdf(url: string): PDFDocumentLoadingTask {
  return getDocument({ url, isEvalSupported: false, enableXfa: false, disableAutoFetch: true });
}

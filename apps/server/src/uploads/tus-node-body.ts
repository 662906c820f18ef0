/**
 * A tus PATCH body read from Node's own request stream instead of through web streams.
 *
 * @tus/server 2 takes each request as a web `Request` (srvx): a PATCH body went Node stream → `Readable.toWeb` → web
 * stream → `Readable.fromWeb` → the store, two adapters and a promise per 64 KiB chunk on the event loop. Here the
 * request's `body` stands for the Node request it came from, and the PATCH handler pipes that straight into the same
 * proxy and size limit @tus/server uses, with the same endings: a client that goes away ends the body (the bytes it
 * sent are kept, so it resumes from them), a failing source answers as tus's aborted request does.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ERRORS, StreamLimiter, type CancellationContext, type DataStore, type Upload } from '@tus/server';

const NODE_REQUEST = Symbol('node request');

interface NodeBody {
  [NODE_REQUEST]: IncomingMessage;
}

/** The Node request behind a srvx request, when it runs on Node. */
function nodeRequestOf(req: Request): IncomingMessage | null {
  return (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req ?? null;
}

/** Makes a PATCH request's `body` stand for its Node request (read nothing yet: no web stream is made). */
function exposeNodeBody(req: Request): void {
  const node = req.method === 'PATCH' ? nodeRequestOf(req) : null;
  if (node) Object.defineProperty(req, 'body', { value: { [NODE_REQUEST]: node } satisfies NodeBody, configurable: true });
}

type WriteToStore = (body: unknown, upload: Upload, maxFileSize: number, context: CancellationContext) => Promise<number>;
type Send = (req: Request, ...rest: unknown[]) => Promise<Response>;

/**
 * Teaches tus's PATCH handler to read bodies from Node's request (exposeNodeBody on the way in); a body of any other
 * kind goes the way @tus/server sends it. (`writeToStore` is the one step of the handler that reads the body.)
 */
export function readNodeBodies(handler: object, store: DataStore): void {
  const h = handler as { send: Send; writeToStore: WriteToStore };
  const send = h.send.bind(handler);
  h.send = (req, ...rest) => {
    exposeNodeBody(req);
    return send(req, ...rest);
  };
  const viaWebStreams = h.writeToStore.bind(handler);
  h.writeToStore = (body, upload, maxFileSize, context) => {
    const node = (body as Partial<NodeBody> | null)?.[NODE_REQUEST];
    return node ? writeNodeBody(node, store, upload, maxFileSize, context) : viaWebStreams(body, upload, maxFileSize, context);
  };
}

/** @tus/server's writeToStore, with the Node request as its source. */
async function writeNodeBody(source: IncomingMessage, store: DataStore, upload: Upload, maxFileSize: number, context: CancellationContext): Promise<number> {
  if (context.signal.aborted) throw ERRORS.ABORTED;
  // The store reads a proxy, so that a failure of the store ends the proxy and not the request: the client still
  // gets its answer rather than a reset connection.
  const proxy = new PassThrough();
  let sourceError: unknown = null;
  let settled = false;
  // Stays on the request (like the web adapter's listener did): an error after this write must not go unheard.
  const onError = (err: unknown) => {
    if (settled) return;
    sourceError = err;
    source.unpipe(proxy);
    // A request that went away has ended the proxy already (onAbort).
    if (!context.signal.aborted) proxy.destroy(err as Error);
  };
  source.on('error', onError);
  // The client went away: what it sent is written, and the upload resumes from there.
  const onAbort = () => {
    source.unpipe(proxy);
    if (!proxy.destroyed) proxy.end();
  };
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    let offset = upload.offset;
    await pipeline(source.pipe(proxy), new StreamLimiter(maxFileSize), async (body) => {
      offset = await store.write(body as unknown as Readable, upload.id, upload.offset);
    });
    return offset;
  } catch (err) {
    source.unpipe(proxy);
    const aborted = (sourceError !== null && err === sourceError) || (err instanceof Error && err.name === 'AbortError');
    throw aborted ? ERRORS.ABORTED : err;
  } finally {
    settled = true;
    context.signal.removeEventListener('abort', onAbort);
  }
}

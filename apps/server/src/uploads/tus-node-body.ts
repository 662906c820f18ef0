/**
 * A tus PATCH body read from Node's own request stream instead of through web streams.
 *
 * @tus/server 2 takes each request as a web `Request` (srvx): a PATCH body went Node stream → `Readable.toWeb` → web
 * stream → `Readable.fromWeb` → the store, two adapters and a promise per 64 KiB chunk on the event loop. Here the
 * request's `body` stands for the Node request it came from, and the PATCH handler pipes that straight into the same
 * proxy and size limit @tus/server uses. Unlike @tus/server, whose proxy is destroyed (and the bytes it holds lost) when
 * the request fails, a request that fails ends the body as one that goes away does: every byte that arrived is
 * written, and the upload resumes from there.
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
  let settled = false;
  // The client went away (the signal) or its request failed (a connection cut mid-body): the proxy ends rather than
  // being destroyed, so the bytes it holds are written too, and the upload resumes from every byte that arrived.
  const endBody = () => {
    source.unpipe(proxy);
    if (proxy.destroyed || proxy.writableEnded) return;
    // What the request read but had not passed on yet (up to its buffer's 16 KiB, held back while the store is slower
    // than the client: the signal can come first) is part of what arrived.
    for (let chunk: Buffer | null; (chunk = source.read() as Buffer | null) !== null; ) proxy.write(chunk);
    proxy.end();
  };
  // Stays on the request (like the web adapter's listener did): an error after this write must not go unheard.
  const onError = () => {
    if (!settled) endBody();
  };
  source.on('error', onError);
  context.signal.addEventListener('abort', endBody, { once: true });
  let storing: Promise<number> | null = null;
  try {
    let offset = upload.offset;
    await pipeline(source.pipe(proxy), new StreamLimiter(maxFileSize), async (body) => {
      storing = store.write(body as unknown as Readable, upload.id, upload.offset);
      offset = await storing;
    });
    return offset;
  } catch (err) {
    source.unpipe(proxy);
    // A store that stops reading ends the pipeline with an AbortError, which may come before the store's own failure
    // (a full disk): that failure is the answer.
    const storeError = storing ? await (storing as Promise<number>).then(() => null, (e: unknown) => e) : null;
    if (storeError) throw storeError;
    throw err instanceof Error && err.name === 'AbortError' ? ERRORS.ABORTED : err;
  } finally {
    settled = true;
    context.signal.removeEventListener('abort', endBody);
  }
}

/**
 * The installed app's share target (manifest `share_target`, POST /drive/share-target) when no service worker took
 * it: the first share after installing, or a browser that dropped the worker. The links in what was shared (url, text,
 * title) go on to the drive's cloud download deep link; a shared .torrent file cannot go through an address, so it
 * is left behind and the dialog opens for the person to pick it (docs/decisions/installed-app.md).
 */
import type { FastifyInstance } from 'fastify';
import { errorBody } from '@haul/shared';

export const SHARE_TARGET_PATH = '/drive/share-target';

/** A shared page and its text, or a .torrent file of a few megabytes, with room for the form around it. */
const BODY_LIMIT = 8 * 1024 * 1024;
/** The address stays well under the 16 KiB a request line and its headers may take when the browser follows it. */
const MAX_QUERY = 6000;

const LINK = /(?:https?:\/\/|magnet:\?)[^\s<>"'`]+/gi;

/** Every http(s) and magnet link in `parts`, in order, each once, without the punctuation of the sentence around it. */
export function linksIn(...parts: string[]): string[] {
  const seen = new Set<string>();
  for (const part of parts)
    for (const m of part.matchAll(LINK)) {
      let link = m[0].replace(/[.,;:!?]+$/, '');
      for (const [open, close] of [
        ['(', ')'],
        ['[', ']'],
      ] as const)
        while (link.endsWith(close) && link.split(open).length < link.split(close).length)
          link = link.slice(0, -1).replace(/[.,;:!?]+$/, '');
      if (!/^(https?:\/\/|magnet:\?)$/i.test(link)) seen.add(link);
    }
  return [...seen];
}

/** Where the drive takes it: the links as one `url` (a line each), as many as fit the address. */
export function arrivalLocation(links: string[], hadFile: boolean): string {
  const kept: string[] = [];
  for (const l of links) if (encodeURIComponent([...kept, l].join('\n')).length <= MAX_QUERY) kept.push(l);
  if (kept.length) return `/drive/all?${new URLSearchParams({ action: 'create_task', url: kept.join('\n') })}`;
  // A file alone: the dialog opens empty, for the person to pick the file again.
  return hadFile ? '/drive/all?action=create_task' : '/drive/all';
}

export async function shareTargetRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    // Only this route reads forms; everything else keeps answering 415 to anything but JSON.
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(SHARE_TARGET_PATH, { schema: { hide: true } as never }, async (req, reply) => {
      const type = String(req.headers['content-type'] ?? '');
      let form: FormData | null = null;
      try {
        // JSON comes parsed by the app's own parser: not a share.
        if (Buffer.isBuffer(req.body))
          form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': type } }).formData();
      } catch {
        form = null;
      }
      if (!form)
        return reply
          .status(400)
          .send(
            errorBody('invalid_argument', 'The shared form could not be read: send multipart/form-data with title, text, url and files.'),
          );
      const text = (name: string) => {
        const v = form.get(name);
        return typeof v === 'string' ? v.slice(0, 65_536) : '';
      };
      const hadFile = form.getAll('files').some((f) => typeof f !== 'string');
      return reply.redirect(arrivalLocation(linksIn(text('url'), text('text'), text('title')), hadFile), 303);
    });
  });
}

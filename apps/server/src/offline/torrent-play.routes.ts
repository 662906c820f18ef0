/** GET tasks/{id}/playable (signed in) and the signed link it gives, tasks/{id}/play/{index}/{name}. */
import type { FastifyInstance } from 'fastify';
import rangeParser from 'range-parser';
import { CONTRACT as C, errorBody } from '@haul/shared';
import type { AppContext } from '../context.js';
import { sendGone } from '../downloads/send-file.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { HttpError } from '../http/errors.js';
import { requireTask } from '../tasks/tasks.repository.js';
import { parseParams } from '../lib/params.js';
import { knownSource, torrentSourceKey } from './offline-sources.js';
import { createTorrentEngine } from './torrent-engines.js';
import { playableTorrent, playLink, playLinkValid, receivedOf, streamRange, taskDirOf, unfinishedTorrent } from './torrent-play.js';
import type { TorrentEngine } from './torrent-types.js';

export async function torrentPlayRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Only read through (which pieces are in, where files are): the engine's own downloads run in the workers.
  let engine: TorrentEngine | null = null;
  const engineOf = () => (engine ??= createTorrentEngine(ctx.config));
  const epochOf = async (userId: string) =>
    (await ctx.db.selectFrom('users').select('session_epoch').where('id', '=', userId).where('disabled_at', 'is', null).where('deleted_at', 'is', null).executeTakeFirst())?.session_epoch;

  serve(app, C.playTaskFile, async (req, reply) => {
    const index = Number(req.params.index);
    const task = await ctx.db.selectFrom('tasks').selectAll().where('id', '=', req.params.id).executeTakeFirst();
    if (!task || parseParams(task.params).kind !== 'bt') return sendGone(reply);
    const epoch = await epochOf(task.user_id);
    if (epoch === undefined || !playLinkValid(ctx, task.id, index, req.query.e, req.query.s, epoch)) return sendGone(reply);
    const torrent = await playableTorrent(ctx, task);
    const file = torrent?.files.find((f) => f.index === index);
    if (!torrent || !file) return sendGone(reply);
    reply
      .header('Accept-Ranges', 'bytes')
      .header('Content-Type', file.mime)
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox");
    let range = { start: 0, end: file.size - 1 };
    const asked = req.headers.range ? rangeParser(file.size, req.headers.range, { combine: true }) : -2;
    if (asked === -1 || file.size === 0) {
      return reply.status(416).header('Content-Range', `bytes */${file.size}`).header('Content-Type', 'application/json; charset=utf-8').send(errorBody('invalid_argument', 'The requested range is not satisfiable.'));
    }
    if (asked !== -2 && asked.type === 'bytes' && asked.length === 1) {
      range = asked[0]!;
      reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    }
    reply.header('Content-Length', range.end - range.start + 1);
    if (req.method === 'HEAD') return reply.send();
    // Whole and in the store already (landed, or the task finished while it played): from there.
    const stored = await knownSource(ctx, torrentSourceKey(torrent.infoHash, file.index));
    if (stored && stored.size === file.size) return reply.send(ctx.blobs.read(stored.hash, range));
    if (!unfinishedTorrent(task)) return sendGone(reply);
    const partial = engineOf().partial(taskDirOf(ctx, task), torrent.infoHash);
    const alive = async () => {
      const now = await ctx.db.selectFrom('tasks').select(['phase', 'params']).where('id', '=', task.id).executeTakeFirst();
      return !!now && unfinishedTorrent({ ...task, ...now });
    };
    let path: string;
    try {
      path = partial.pathOf(file.torrentPath);
    } catch {
      return sendGone(reply);
    }
    return reply.send(streamRange(torrent, file, partial, path, range, alive));
  });

  await app.register(async (scope) => {
    requireAuth(scope, ctx, { appScope: 'pan' });
    serve(scope, C.listPlayableTaskFiles, async (req) => {
      const task = await requireTask(ctx.db, req.userId, req.params.id);
      if (!unfinishedTorrent(task)) throw new HttpError(409, 'failed_precondition', 'Only a torrent that is still downloading plays from here; a finished one is in your drive.');
      const torrent = await playableTorrent(ctx, task);
      if (!torrent) return { files: [] };
      const epoch = (await epochOf(req.userId)) ?? 0;
      const bits = await engineOf().partial(taskDirOf(ctx, task), torrent.infoHash).pieces();
      return {
        files: torrent.files.map((f) => ({
          index: f.index,
          name: f.name,
          path: f.path,
          size: String(f.size),
          mime_type: f.mime,
          kind: f.kind,
          received: String(receivedOf(f, torrent.pieceLength, bits)),
          url: playLink(ctx, task, f, epoch),
        })),
      };
    });
  });
}

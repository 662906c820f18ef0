/** POST /drive/v1/torrent:inspect: a torrent's file list, so the person can choose what to keep before adding it. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { serve } from '../http/contract.js';
import { badInput } from '../http/errors.js';
import type { OfflineWorker } from './offline.worker.js';
import { TORRENT_MAX_BYTES } from './offline.service.js';
import { presentTorrent } from './torrent-listing.js';

export async function offlineRoutes(app: FastifyInstance, ctx: AppContext, worker: OfflineWorker): Promise<void> {
  serve(
    app,
    C.inspectTorrent,
    async (req) => {
      const { url, torrent } = req.body;
      if (!!url === !!torrent) throw badInput('Give either a magnet link (url) or a torrent file (torrent).');
      if (url && !/^magnet:\?/i.test(url.trim())) throw badInput('url must be a magnet link.');
      const bytes = torrent ? Buffer.from(torrent, 'base64') : null;
      if (bytes && (bytes.length === 0 || bytes.length > TORRENT_MAX_BYTES)) throw badInput('The torrent file is empty or too large.');
      return presentTorrent(await worker.inspectTorrent(bytes ?? url!.trim()));
    },
    // Room for a .torrent file in the body.
    { bodyLimit: 8 * 1024 * 1024 },
  );
}

/** /drive/v1/events: recent activity and play history. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C, EVENT_TYPES, LIMITS, type EventType } from '@haul/shared';
import type { AppContext } from '../context.js';
import { serve } from '../http/contract.js';
import { presentFile } from '../files/files.presenter.js';
import { songsWithCover, thumbnailLinker } from '../media/media.service.js';
import { thumbnailSize } from '../media/playback.policy.js';
import { requireFile, userFilesIn } from '../files/files.repository.js';
import { badInput, notFound } from '../http/errors.js';
import { filterList, filterOperator, readFilters } from '../http/filters.js';
import { clearEvents, deleteEvents, listEvents, recordEvent } from './events.repository.js';
import { presentEvent } from './events.presenter.js';

/** `{"type":{"eq":"TYPE_PLAY"}}`, `{"type":{"in":"A,B"}}` or `{"type":{"neq":"TYPE_PLAY"}}`. */
function parseTypeFilter(raw: string | undefined): { include?: EventType[]; exclude?: EventType[] } {
  const ops = readFilters(raw, ['type']).type;
  if (!ops) return {};
  const [op, value] = filterOperator(ops, 'type', ['eq', 'in', 'neq']);
  const types = filterList(value, 'type');
  const bad = types.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (bad) throw badInput(`filters.type: unknown event type "${bad.slice(0, 60)}".`);
  return op === 'neq' ? { exclude: types as EventType[] } : { include: types as EventType[] };
}

export async function eventsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const retentionMs = ctx.config.trashRetentionDays * 86_400_000;

  serve(app, C.listEvents, async (req) => {
    const types = parseTypeFilter(req.query.filters);
    const page = await listEvents(ctx.db, req.userId, { ...types, limit: req.query.limit ?? LIMITS.eventsDefault, pageToken: req.query.page_token });
    const fileIds = [...new Set(page.rows.map((r) => r.file_id))];
    const files = fileIds.length ? await ctx.db.selectFrom('files').selectAll().where(userFilesIn(req.userId, fileIds)).execute() : [];
    // Recent and the watch history show thumbnails (songs: their cover, where they have one).
    const thumbnailLink = thumbnailLinker(ctx, req.caller, thumbnailSize(req.query.thumbnail_size), await songsWithCover(ctx, files));
    const byId = new Map(files.map((f) => [f.id, presentFile(f, { retentionMs, thumbnailLink })]));
    return { events: page.rows.map((r) => presentEvent(r, byId.get(r.file_id) ?? null)), next_page_token: page.nextPageToken };
  });

  serve(app, C.recordEvent, async (req) => {
    const { type, file_id, params } = req.body.event;
    const file = await requireFile(ctx.db, req.userId, file_id, { live: true });
    await recordEvent(ctx.db, req.userId, type, file, ctx.clock.now(), params ?? {});
    return {};
  });

  serve(app, C.deleteEvents, async (req) => {
    const ids = [...new Set(req.body.ids)];
    if (!(await deleteEvents(ctx.db, req.userId, ids))) throw notFound('One or more events do not exist.');
    return {};
  });

  serve(app, C.clearEvents, async (req) => {
    await clearEvents(ctx.db, req.userId, req.body.types);
    return {};
  });
}

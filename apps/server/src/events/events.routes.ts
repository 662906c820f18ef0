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
import { decodeTimeCursor, encodePageToken } from '../lib/page-token.js';
import { recordEvent } from './events.repository.js';
import { presentEvent } from './events.presenter.js';

/** `{"type":{"eq":"TYPE_PLAY"}}`, `{"type":{"in":"A,B"}}` or `{"type":{"neq":"TYPE_PLAY"}}`. */
function parseTypeFilter(raw: string | undefined): { include?: EventType[]; exclude?: EventType[] } {
  if (!raw) return {};
  let f: { type?: Record<string, unknown> };
  try {
    f = JSON.parse(raw);
  } catch {
    throw badInput('filters must be a JSON object.');
  }
  const extra = Object.keys(f ?? {}).find((k) => k !== 'type');
  if (extra) throw badInput(`filters: unknown field "${extra}".`);
  const ops = f?.type;
  if (!ops) return {};
  const toTypes = (v: unknown): EventType[] => {
    const list = (Array.isArray(v) ? v : String(v).split(',')).map((s) => String(s).trim());
    const bad = list.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
    if (bad) throw badInput(`filters.type: unknown event type "${bad}".`);
    return list as EventType[];
  };
  if ('eq' in ops) return { include: toTypes(ops.eq) };
  if ('in' in ops) return { include: toTypes(ops.in) };
  if ('neq' in ops) return { exclude: toTypes(ops.neq) };
  throw badInput('filters.type takes eq, in or neq.');
}

export async function eventsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const retentionMs = ctx.config.trashRetentionDays * 86_400_000;

  serve(app, C.listEvents, async (req) => {
    const limit = req.query.limit ?? LIMITS.eventsDefault;
    const types = parseTypeFilter(req.query.filters);
    let q = ctx.db.selectFrom('events').selectAll().where('user_id', '=', req.userId);
    if (types.include) q = q.where('type', 'in', types.include);
    if (types.exclude) q = q.where('type', 'not in', types.exclude);
    if (req.query.page_token) {
      const [t, id] = decodeTimeCursor(req.query.page_token, 'events');
      q = q.where((eb) => eb.or([eb('updated_time', '<', t), eb.and([eb('updated_time', '=', t), eb('id', '<', id)])]));
    }
    const rows = await q.orderBy('updated_time', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
    const more = rows.length > limit;
    if (more) rows.pop();
    const fileIds = [...new Set(rows.map((r) => r.file_id))];
    const files = fileIds.length
      ? await ctx.db.selectFrom('files').selectAll().where(userFilesIn(req.userId, fileIds)).execute()
      : [];
    // Recent and the watch history show thumbnails (songs: their cover, where they have one).
    const thumbnailLink = thumbnailLinker(ctx, req.caller, thumbnailSize(req.query.thumbnail_size), await songsWithCover(ctx, files));
    const byId = new Map(files.map((f) => [f.id, presentFile(f, { retentionMs, thumbnailLink })]));
    const last = rows[rows.length - 1];
    return {
      events: rows.map((r) => presentEvent(r, byId.get(r.file_id) ?? null)),
      next_page_token: more && last ? encodePageToken('events', [last.updated_time, last.id]) : '',
    };
  });

  serve(app, C.recordEvent, async (req) => {
    const { type, file_id, params } = req.body.event;
    const file = await requireFile(ctx.db, req.userId, file_id, { live: true });
    await recordEvent(ctx.db, req.userId, type, file, ctx.clock.now(), params ?? {});
    return {};
  });

  serve(app, C.deleteEvents, async (req) => {
    const ids = [...new Set(req.body.ids)];
    const owned = await ctx.db.selectFrom('events').select('id').where('user_id', '=', req.userId).where('id', 'in', ids).execute();
    if (owned.length !== ids.length) throw notFound('One or more events do not exist.');
    await ctx.db.deleteFrom('events').where('user_id', '=', req.userId).where('id', 'in', ids).execute();
    return {};
  });

  serve(app, C.clearEvents, async (req) => {
    await ctx.db.deleteFrom('events').where('user_id', '=', req.userId).where('type', 'in', req.body.types).execute();
    return {};
  });
}

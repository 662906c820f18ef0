/** /drive/v1/events: recent activity and play history. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES, LIMITS, type EventType } from '@haul/shared';
import type { AppContext } from '../context.js';
import { presentFile } from '../files/files.presenter.js';
import { thumbnailLinker } from '../media/media.service.js';
import { thumbnailSize } from '../media/playback.policy.js';
import { requireFile } from '../files/files.repository.js';
import { badInput, notFound } from '../http/errors.js';
import { decodeTimeCursor, encodePageToken } from '../lib/page-token.js';
import { recordEvent } from './events.repository.js';
import { presentEvent } from './events.presenter.js';

const EventTypeSchema = Type.Union(EVENT_TYPES.map((t) => Type.Literal(t)));
const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax })),
  page_token: Type.Optional(Type.String({ maxLength: 500 })),
  filters: Type.Optional(Type.String({ maxLength: 2000 })),
  thumbnail_size: Type.Optional(Type.String({ maxLength: 40 })),
});
const PostBody = Type.Object({
  event: Type.Object({
    type: EventTypeSchema,
    file_id: Type.String({ minLength: 1, maxLength: 64 }),
    params: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 256 }), { maxProperties: 20 })),
  }),
});
const DeleteBody = Type.Object({ ids: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: LIMITS.batchMaxIds }) });
const ClearBody = Type.Object({ types: Type.Array(EventTypeSchema, { minItems: 1, maxItems: EVENT_TYPES.length }) });

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

  app.get<{ Querystring: Static<typeof ListQuery> }>('/drive/v1/events', { schema: { querystring: ListQuery } }, async (req) => {
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
      ? await ctx.db.selectFrom('files').selectAll().where('user_id', '=', req.userId).where('id', 'in', fileIds).execute()
      : [];
    // Recent and the watch history show thumbnails (songs: their cover).
    const thumbnailLink = thumbnailLinker(ctx, req.userId, thumbnailSize(req.query.thumbnail_size), true);
    const byId = new Map(files.map((f) => [f.id, presentFile(f, { retentionMs, thumbnailLink })]));
    const last = rows[rows.length - 1];
    return {
      events: rows.map((r) => presentEvent(r, byId.get(r.file_id) ?? null)),
      next_page_token: more && last ? encodePageToken('events', [last.updated_time, last.id]) : '',
    };
  });

  app.post<{ Body: Static<typeof PostBody> }>('/drive/v1/events', { schema: { body: PostBody } }, async (req) => {
    const { type, file_id, params } = req.body.event;
    const file = await requireFile(ctx.db, req.userId, file_id, { live: true });
    await recordEvent(ctx.db, req.userId, type, file, ctx.clock.now(), params ?? {});
    return {};
  });

  app.post<{ Body: Static<typeof DeleteBody> }>('/drive/v1/events::delete', { schema: { body: DeleteBody } }, async (req) => {
    const ids = [...new Set(req.body.ids)];
    const owned = await ctx.db.selectFrom('events').select('id').where('user_id', '=', req.userId).where('id', 'in', ids).execute();
    if (owned.length !== ids.length) throw notFound('One or more events do not exist.');
    await ctx.db.deleteFrom('events').where('user_id', '=', req.userId).where('id', 'in', ids).execute();
    return {};
  });

  app.post<{ Body: Static<typeof ClearBody> }>('/drive/v1/events::clear', { schema: { body: ClearBody } }, async (req) => {
    await ctx.db.deleteFrom('events').where('user_id', '=', req.userId).where('type', 'in', req.body.types).execute();
    return {};
  });
}

/** Events: recent activity (created, uploaded, renamed, trashed, restored) and the play history. */
import { Type } from '@sinclair/typebox';
import { EVENT_TYPES, LIMITS, THUMBNAIL_SIZES } from '../constants.js';
import { DriveEventSchema } from '../entities.js';
import { route } from './define.js';
import { Empty, StringEnum } from './schema-kit.js';

const tag = 'Events';
const EventType = StringEnum(EVENT_TYPES);

export const EventListSchema = Type.Object({
  events: Type.Array(DriveEventSchema, { description: 'Newest first (by the last time the event happened).' }),
  next_page_token: Type.String({ description: "Pass as page_token for the next page; '' on the last page." }),
});

export const eventsRoutes = {
  listEvents: route({
    method: 'GET',
    path: '/drive/v1/events',
    tag,
    summary: 'List events',
    description:
      'A page of the account\'s events, newest first, each with the file it refers to (`reference_resource`, null once the file is deleted for good). There is one event per file and type: a repeat moves it to the top.',
    auth: 'user',
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax, description: `Events a page (${LIMITS.eventsDefault} unless said).` })),
      page_token: Type.Optional(Type.String({ maxLength: 500 })),
      filters: Type.Optional(
        Type.String({ maxLength: 2000, description: 'JSON on the type only: {"type":{"eq":"TYPE_PLAY"}}, {"type":{"in":"TYPE_CREATE,TYPE_UPLOAD"}} or {"type":{"neq":"TYPE_PLAY"}}.' }),
      ),
      thumbnail_size: Type.Optional(Type.String({ maxLength: 40, description: `One of ${THUMBNAIL_SIZES.join(', ')}.` })),
    }),
    response: EventListSchema,
    errors: { invalid_argument: 'filters is not JSON, names a field other than type or an unknown event type, or page_token is not one of this listing.' },
  }),
  recordEvent: route({
    method: 'POST',
    path: '/drive/v1/events',
    tag,
    summary: 'Record an event',
    description:
      'Records that the user did something with a file, such as TYPE_PLAY or TYPE_VIEW. A repeat of the same type on the same file replaces the earlier event\'s params and moves it to the top. The web app sends TYPE_PLAY with params play_duration and play_seconds (whole seconds) for the watch history.',
    auth: 'user',
    body: Type.Object({
      event: Type.Object({
        type: EventType,
        file_id: Type.String({ minLength: 1, maxLength: 64 }),
        params: Type.Optional(
          Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 256 }), { maxProperties: 20, description: 'Up to 20 string values kept with the event.' }),
        ),
      }),
    }),
    response: Empty,
    errors: { file_not_found: 'No such file of yours.', file_in_recycle_bin: 'The file is in the trash.' },
    example: { event: { type: 'TYPE_PLAY', file_id: '…', params: { play_duration: '5400', play_seconds: '1200' } } },
  }),
  deleteEvents: route({
    method: 'POST',
    path: '/drive/v1/events::delete',
    tag,
    summary: 'Delete events',
    description: 'Deletes events by id (from the watch history, say); the files stay. All or nothing.',
    auth: 'user',
    body: Type.Object({ ids: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: LIMITS.batchMaxIds }) }),
    response: Empty,
    errors: { file_not_found: 'An id is not one of your events: nothing was deleted.' },
    example: { ids: ['…'] },
  }),
  clearEvents: route({
    method: 'POST',
    path: '/drive/v1/events::clear',
    tag,
    summary: 'Clear events of some types',
    description: 'Deletes every event of the given types (TYPE_PLAY clears the watch history); the files stay.',
    auth: 'user',
    body: Type.Object({ types: Type.Array(EventType, { minItems: 1, maxItems: EVENT_TYPES.length }) }),
    response: Empty,
    errors: {},
    example: { types: ['TYPE_PLAY'] },
  }),
};

/**
 * Usage statistics (seed 001 "Statistics", seed 000 §7 "drive and basic stat calls {client web, data}"): the apps
 * report named events; the server counts them per day and name, keeping nothing about who sent them.
 */
import { Type } from '@sinclair/typebox';
import { STAT_EVENTS } from '../constants.js';
import { route } from './define.js';
import { StringEnum } from './schema-kit.js';

export const statsRoutes = {
  reportStats: route({
    method: 'POST',
    path: '/drive/v1/stats',
    tag: 'Statistics',
    summary: 'Report usage events',
    description:
      "Counts each event once per day in the operator's time zone (`haul-admin stats` prints them). Anyone may report, share visitors included; nothing about the sender is kept, so the counts are the operator's rough guide, not an audit.",
    auth: 'public',
    body: Type.Object({
      client: Type.String({ maxLength: 32, description: 'web, or the name of another app.' }),
      data: Type.Array(Type.Object({ event: StringEnum(STAT_EVENTS), count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 1 })) }), { minItems: 1, maxItems: 50 }),
    }),
    response: Type.Object({ counted: Type.Integer({ description: 'How many events were counted.' }) }),
    errors: { invalid_argument: 'An unknown event name, a count out of range, or more than 50 entries.' },
    example: { client: 'web', data: [{ event: 'play_limited_show' }] },
  }),
};

/** About: the account's storage and transfer quotas. */
import { Type } from '@sinclair/typebox';
import { QUOTA_KINDS } from '../constants.js';
import { AboutSchema } from '../entities.js';
import { route } from './define.js';

const tag = 'About';

export const aboutRoutes = {
  getAbout: route({
    method: 'GET',
    path: '/drive/v1/about',
    tag,
    summary: 'Storage and quotas',
    description:
      "The account's storage limit and use (the trash counts), and, for each quota kind named in `with_quotas`, the period's limit, use and when it starts over: bytes per calendar month in the server's time zone (`upload_size_month`, `cloud_download_size_month`, `download_size_month`), and for `cloud_download` the cloud downloads added today against the daily limit. Kinds this server does not limit answer as unlimited; names it does not know are left out.",
    auth: 'user',
    query: Type.Object({
      with_quotas: Type.Optional(Type.String({ maxLength: 500, description: `Quota kinds, comma-separated: ${QUOTA_KINDS.join(', ')}.` })),
    }),
    response: AboutSchema,
    errors: { file_not_found: 'The account was deleted while the request ran.' },
  }),
};

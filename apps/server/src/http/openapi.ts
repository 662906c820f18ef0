/**
 * The API reference: the OpenAPI 3.1 document generated from the routes' contract schemas (@fastify/swagger), at
 * /api/openapi.json, and a reference page at /api/docs (Swagger UI, served from our own origin: no CDN).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { CONTRACT, ERROR_CODES } from '@haul/shared';
import type { Config } from '../config.js';
import { linkBase } from './public-url.js';

const TAGS = [
  ['Accounts', 'Sign up, sign in, tokens and the signed-in user.'],
  ['Files', 'Files and folders: list, read, create, rename, star, move, copy, trash and delete.'],
  ['Uploads', 'Resumable uploads over tus, instant when the content is stored already.'],
  ['Tasks', 'Uploads, cloud downloads and batch operations, and their progress.'],
  ['Events', 'What happened in the drive: sync and recent activity.'],
  ['Media', 'Downloads, thumbnails, playback and HLS.'],
  ['Shares', 'Share links, pass codes and what visitors see.'],
  ['About', 'Storage and traffic quotas.'],
];

const catalogue = Object.entries(ERROR_CODES)
  .map(([name, code]) => `| \`${name}\` | ${code} |`)
  .join('\n');

const DESCRIPTION = `Every call of the Haul server. Calls that need a user carry \`Authorization: Bearer <access_token>\` from
\`POST /v1/auth/signin\`; refresh it with \`POST /v1/auth/token\`. Sizes and counts are decimal strings, times RFC 3339.

Every failure answers with the error object \`{error, error_code, error_description, error_uri, details}\`; clients act
on \`error\`, people read \`error_description\`.

| error | error_code |
|---|---|
${catalogue}`;

/** Registers the document and the reference page; call before any route, so every route is seen. */
export async function installApiReference(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Haul API', version: '1', description: DESCRIPTION },
      tags: TAGS.map(([name, description]) => ({ name: name!, description })),
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An access token from POST /v1/auth/signin.' } } },
    },
    // Only contract routes are documented (the web app's pages and these docs are not API).
    transform: ({ schema, url, route }) => ({ schema: { ...schema, hide: !route.config?.contract }, url }),
    transformObject: (doc) => withExamples((doc as unknown as { openapiObject: Record<string, unknown> }).openapiObject),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0, tryItOutEnabled: false },
    theme: { title: 'Haul API' },
    // Servers follow the address the reader used (as links do), unless the public URL is pinned.
    transformSpecification: (doc, req) => ({ ...(doc as object), servers: [{ url: linkBase(config, req) }] }),
  });
  app.get('/api/openapi.json', { schema: { hide: true } as never }, (req) => ({ ...app.swagger(), servers: [{ url: linkBase(config, req) }] }));
}

/** Adds each route's example body to its operation (JSON Schema `examples` do not reach the request body there). */
function withExamples(doc: Record<string, unknown>): Record<string, unknown> {
  const out = doc as { paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { example?: unknown }> } }>> };
  for (const def of Object.values(CONTRACT)) {
    if (!('example' in def) || def.example === undefined) continue;
    const path = def.path.replace(/::/g, '\u0000').replace(/:(\w+)/g, '{$1}').replace(/\u0000/g, ':');
    const json = out.paths?.[path]?.[def.method.toLowerCase()]?.requestBody?.content?.['application/json'];
    if (json) json.example = def.example;
  }
  return out as Record<string, unknown>;
}

/**
 * The API reference: the OpenAPI 3.1 document generated from the routes' contract schemas (@fastify/swagger), at
 * /api/openapi.json, and a reference page at /api/docs (Swagger UI, served from our own origin: no CDN).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CONTRACT, docPath, ERROR_CODES, headRoute, isRaw, type RouteDef } from '@haul/shared';
import type { Config } from '../config.js';
import { fastifySchema } from './contract.js';
import { linkBase } from './public-url.js';

/**
 * The repository states no license (no LICENSE file, no `license` in package.json): UNLICENSED, npm's word for "no
 * license granted", until the project chooses one. OpenAPI 3.1 wants info.license to have a name.
 */
const LICENSE = { name: 'UNLICENSED' };

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
  const texts = documentTexts(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Haul API', version: '1', description: DESCRIPTION, license: LICENSE },
      tags: TAGS.map(([name, description]) => ({ name: name!, description })),
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An access token from POST /v1/auth/signin.' } } },
    },
    // Only contract routes are documented (the web app's pages and these docs are not API); a HEAD reaches here only
    // for a GET whose contract documents its HEAD twin.
    transform: ({ schema, url, route }) => {
      const def = route.config?.contract;
      if (!def) return { schema: { ...schema, hide: true }, url };
      const documented = route.method === 'HEAD' ? headRoute(def) : def;
      // The router's `*` becomes a named parameter; the rest of the path is formatted by @fastify/swagger.
      return { schema: referenceSchema(documented), url: documented.restName ? url.replace('*', `:${documented.restName}`) : url };
    },
    transformObject: (doc) => withExamples((doc as unknown as { openapiObject: Record<string, unknown> }).openapiObject),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // Areas folded: with every one of its 130-odd operations open at once Swagger UI stops rendering part way.
    uiConfig: { deepLinking: true, docExpansion: 'none', defaultModelsExpandDepth: 0, tryItOutEnabled: false },
    theme: { title: 'Haul API' },
    // Servers follow the address the reader used (as links do), unless the public URL is pinned. The plugin would copy
    // the document and write it out again at each request (for YAML ~0.3 s of CPU, the event loop held meanwhile): the
    // texts are written once, and each answer adds the reader's servers entry.
    uiHooks: {
      preHandler: (req, reply, done) => {
        const url = req.routeOptions.url;
        if (url === '/api/docs/json') reply.type('application/json; charset=utf-8').send(texts.json(linkBase(config, req)));
        else if (url === '/api/docs/yaml') reply.type('application/x-yaml').send(texts.yaml(linkBase(config, req)));
        else done();
      },
    },
  });
  app.get('/api/openapi.json', { schema: { hide: true } as never }, (req, reply) =>
    reply.type('application/json; charset=utf-8').send(texts.json(linkBase(config, req))),
  );
}

/**
 * The document as JSON and as YAML, each written at its first request (every route is known by then), with `servers`
 * added as the last key: what the document with that key set would be written as (it has none of its own: none is
 * configured above).
 */
function documentTexts(app: FastifyInstance) {
  let json: string | null = null;
  let yaml: string | null = null;
  return {
    json: (base: string) => `${(json ??= JSON.stringify(app.swagger())).slice(0, -1)},"servers":[{"url":${JSON.stringify(base)}}]}`,
    yaml: (base: string) => `${(yaml ??= app.swagger({ yaml: true }))}servers:\n  - url: ${JSON.stringify(base)}\n`,
  };
}

/**
 * What the reference shows of a route: its Fastify schema, plus what only readers need and Fastify must not check
 * (tus checks its own headers and reads its own body): request headers, a raw request body, answer headers, and the
 * `*` parameter under its name.
 */
function referenceSchema(def: RouteDef): Record<string, unknown> {
  const schema = fastifySchema(def);
  if (def.restName && def.params) {
    const params = def.params as TSchema & { properties: Record<string, TSchema>; required?: string[] };
    const name = (key: string) => (key === '*' ? def.restName! : key);
    schema.params = {
      ...params,
      properties: Object.fromEntries(Object.entries(params.properties).map(([key, s]) => [name(key), s])),
      required: params.required?.map(name),
    };
  }
  if (def.requestHeaders) schema.headers = def.requestHeaders;
  if (def.rawBody) Object.assign(schema, { body: { type: 'string', format: 'binary', description: def.rawBody.description }, consumes: def.rawBody.types });
  const response = schema.response as Record<string, Record<string, unknown>>;
  const ok = String(def.status ?? 200);
  // A raw answer with no media type has no body (`null` keeps @fastify/swagger from inventing a JSON one).
  if (isRaw(def.response) && !def.response.types.length) response[ok] = { ...response[ok], type: 'null' };
  if (def.answerHeaders) {
    const headers = Object.fromEntries(Object.entries(def.answerHeaders).map(([name, description]) => [name, { type: 'string', description }]));
    response[ok] = { ...response[ok], headers };
  }
  return schema;
}

/** Adds each route's example body to its operation (JSON Schema `examples` do not reach the request body there). */
function withExamples(doc: Record<string, unknown>): Record<string, unknown> {
  const out = doc as { paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { example?: unknown }> } }>> };
  for (const def of Object.values(CONTRACT)) {
    if (!('example' in def) || def.example === undefined) continue;
    const json = out.paths?.[docPath(def)]?.[def.method.toLowerCase()]?.requestBody?.content?.['application/json'];
    if (json) json.example = def.example;
  }
  return out as Record<string, unknown>;
}

/**
 * Registers routes from the shared contract: the route's schemas validate what comes in and serialise what goes out
 * (a field that is not in the answer's schema is never sent), and they are what the OpenAPI document shows.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JSON_ANSWER_COMPRESSION } from './compression.js';
import { errorBody, ErrorBodySchema, headRoute, isRaw, routeErrors, takesBearer, type ErrorName, type RouteBody, type RouteDef, type RouteParams, type RouteQuery } from '@haul/shared';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract entry the route was registered from. */
    contract?: RouteDef;
  }
}

export type ContractRequest<D extends RouteDef> = FastifyRequest<{ Params: RouteParams<D>; Querystring: RouteQuery<D>; Body: RouteBody<D> }>;
/** What a handler returns: the answer's type, or nothing when it sends a raw body through `reply`. */
export type ContractAnswer<D extends RouteDef> = D['response'] extends TSchema ? Static<D['response']> : unknown;
export type ContractHandler<D extends RouteDef> = (req: ContractRequest<D>, reply: FastifyReply) => Promise<ContractAnswer<D>>;

/** The route's schema as Fastify (and @fastify/swagger) read it. */
export function fastifySchema(def: RouteDef): Record<string, unknown> {
  const response: Record<string, unknown> = {};
  const status = def.status ?? 200;
  const raw = isRaw(def.response) ? def.response : null;
  response[status] = !raw
    ? { description: 'OK', ...(def.response as object) }
    : raw.types.length
      ? { description: raw.description, content: Object.fromEntries(raw.types.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])) }
      : // No body at all (a 204): a description only.
        { description: raw.description };
  for (const [code, names] of routeErrors(def)) {
    response[code] = { ...ErrorBodySchema, description: [...names].map(([name, when]) => `\`${name}\`: ${when}`).join('\n\n') };
  }
  return {
    operationId: def.operationId,
    summary: def.summary,
    description: def.description,
    tags: [def.tag],
    security: takesBearer(def.auth) ? [{ bearer: [] }] : [],
    ...(def.params ? { params: def.params } : {}),
    ...(def.query ? { querystring: def.query } : {}),
    ...(def.body ? { body: def.body } : {}),
    response,
  };
}

/** Registers `def` on `app` with `handler`. */
export function serve<D extends RouteDef>(app: FastifyInstance, def: D, handler: ContractHandler<D>, opts: { bodyLimit?: number } = {}): void {
  app.route({
    method: def.method,
    url: def.path,
    schema: fastifySchema(def),
    // A documented HEAD twin is shown in the reference (@fastify/swagger leaves HEAD routes out unless asked).
    config: { contract: def, ...(def.head ? { swagger: { exposeHeadRoute: true } } : {}) },
    // JSON answers are compressed for clients that accept it; a raw body (a file's bytes) never is.
    ...(isRaw(def.response) ? {} : { compress: JSON_ANSWER_COMPRESSION }),
    ...opts,
    handler: handler as never,
  });
}

/**
 * Checks each answer of a contract route: a JSON success against the route's answer schema (extra fields included), an
 * error against the errors the route documents (by name and status for the error object, by status for any other
 * body). A breach answers 500 with what broke, so a test that meets it fails.
 */
export function installResponseCheck(app: FastifyInstance): void {
  const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
  const compiled = new WeakMap<object, ValidateFunction>();
  const validator = (schema: TSchema) => {
    let v = compiled.get(schema);
    if (!v) compiled.set(schema, (v = ajv.compile(closed(schema) as object)));
    return v;
  };
  app.addHook('preSerialization', async (req, reply, payload) => {
    const def = req.routeOptions.config?.contract;
    if (!def || (reply.statusCode === 500 && (payload as { error?: string })?.error === 'internal')) return payload;
    const breach = (what: string) => {
      req.log.error(`Contract breach: ${def.method} ${def.path} ${what}`);
      reply.code(500);
      return errorBody('internal', `Contract breach: ${def.method} ${def.path} ${what}`);
    };
    if (reply.statusCode >= 400) {
      const name = (payload as { error?: string }).error as ErrorName;
      return documentedErrors(req, def).get(reply.statusCode)?.has(name) ? payload : breach(`answered ${reply.statusCode} ${name}, which it does not document.`);
    }
    if (isRaw(def.response)) return breach('answered JSON, but documents a raw body.');
    const validate = validator(def.response);
    return validate(payload) ? payload : breach(`answered outside its schema: ${ajv.errorsText(validate.errors)}.`);
  });
  // An error answer that is not a JSON object (text, bytes, no body) skips preSerialization: its status, at least, is
  // held to what the route documents. 499 (the client hung up) is written for the log only: nobody reads it.
  app.addHook('onSend', async (req, reply, payload) => {
    const def = req.routeOptions.config?.contract;
    const status = reply.statusCode;
    if (!def || status < 400 || status === 499 || documentedErrors(req, def).has(status)) return payload;
    const what = `Contract breach: ${def.method} ${def.path} answered ${status}, which it does not document.`;
    req.log.error(what);
    (payload as { destroy?: () => void } | null)?.destroy?.();
    reply.code(500).removeHeader('Content-Encoding').header('Content-Type', 'application/json; charset=utf-8');
    return JSON.stringify(errorBody('internal', what));
  });
}

/** The errors the route documents for this request's method (a documented HEAD twin has its own). */
const documentedErrors = (req: FastifyRequest, def: RouteDef) => routeErrors(req.method === 'HEAD' && def.head ? headRoute(def) : def);

/** A copy of `schema` whose objects refuse fields they do not name (records keep their open shape). */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === 'enum' || k === 'const' ? v : closed(v);
  if (out.properties && out.additionalProperties === undefined && !out.patternProperties) out.additionalProperties = false;
  return out;
}

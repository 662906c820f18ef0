/**
 * How a route is written down once: its method and path, what it takes (params, query, body) and what it answers, who
 * may call it and which errors of the catalogue it answers with. The server registers, validates and serialises from
 * this; the OpenAPI document is generated from it; the typed client and the web app call through it.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorName } from '../errors.js';
import { takesBearer, type Auth } from './auth.js';

export { takesBearer, type Auth };

/** What a third-party app's token must have been granted to call a `user` route: `pan` the drive, `user` the account's info. */
export type AppScope = 'user' | 'pan';

/**
 * When a route answers with an error: a sentence, or a sentence with the status(es) it comes with when not (only) the
 * error's usual one (a Range past the end is 416 invalid_argument, besides the usual 400).
 */
export type ErrorWhen = string | { status: number | number[]; when: string };

/** A body that is not JSON: a file's bytes, a playlist, a picture. */
export interface RawAnswer {
  raw: true;
  /** Media types the route may answer with. */
  types: string[];
  description: string;
}

export interface RouteDef<P extends TSchema | undefined = TSchema | undefined, Q extends TSchema | undefined = TSchema | undefined, B extends TSchema | undefined = TSchema | undefined, R extends TSchema | RawAnswer = TSchema | RawAnswer> {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** The router's path: `:name` is a parameter, `::` a literal colon, `*` the rest of the path. */
  path: string;
  /** The area the route belongs to (the reference groups by it). */
  tag: string;
  summary: string;
  description: string;
  auth: Auth;
  /**
   * A third-party app's token may call this route with this scope; without it (and unless the route's area allows
   * apps, see requireAuth) only the person's own sessions may: account security is never an app's.
   */
  appScope?: AppScope;
  params?: P;
  query?: Q;
  body?: B;
  /** The success answer: a JSON schema, or a raw body. */
  response: R;
  /** Status of the success answer (200 unless said). */
  status?: number;
  /** Errors this route answers with, beyond those every route may answer (COMMON_ERRORS), and when. */
  errors: Partial<Record<ErrorName, ErrorWhen>>;
  /** A request body a reader can copy. */
  example?: unknown;
  /**
   * The reference's name for the `*` parameter: OpenAPI needs a named path parameter, and clients send `{*}` literally.
   */
  restName?: string;
  /**
   * Request headers the reference lists. Documentation only: the route checks them itself (tus answers its own
   * statuses for them), so they are not validated up front.
   */
  requestHeaders?: TSchema;
  /** A request body that is not JSON, which the route reads itself: its media types and what it holds. */
  rawBody?: { types: string[]; description: string };
  /** What the success answer says in its headers, by header. */
  answerHeaders?: Record<string, string>;
  /** The HEAD twin of a GET route, documented as its own operation. */
  head?: HeadTwin;
  /** The route's name in CONTRACT (set there). */
  operationId?: string;
}

/**
 * A GET route's HEAD twin (Fastify answers HEAD with the GET handler), when it answers differently enough to need its
 * own operation in the reference: generated clients and validators read one operation a method. It has no body.
 */
export type HeadTwin = Pick<RouteDef, 'summary' | 'description' | 'status' | 'requestHeaders' | 'answerHeaders' | 'errors'> & {
  /** Its operationId (the twin is not a CONTRACT entry: it is registered with its GET route). */
  name: string;
  /** What its success answer says (in its headers). */
  answer: string;
};

/** The HEAD twin of `d` as a route of its own: what the reference shows and what the response check holds it to. */
export function headRoute(d: RouteDef): RouteDef {
  if (d.method !== 'GET' || !d.head) throw new Error(`${d.method} ${d.path} has no documented HEAD twin`);
  const h = d.head;
  // Only what a HEAD shares with its GET (path, parameters, auth, tag) is kept; the rest is the twin's own.
  return {
    method: 'HEAD',
    path: d.path,
    restName: d.restName,
    tag: d.tag,
    auth: d.auth,
    appScope: d.appScope,
    params: d.params,
    query: d.query,
    operationId: h.name,
    summary: h.summary,
    description: h.description,
    status: h.status,
    requestHeaders: h.requestHeaders,
    answerHeaders: h.answerHeaders,
    response: { raw: true, types: [], description: h.answer },
    errors: h.errors,
  };
}

/** Defines a route; the identity function that keeps the exact schema types for the server and the client. */
export const route = <D extends RouteDef>(d: D): D => d;

/** Static type of an optional schema (`undefined` when the route has none). */
type StaticOf<S> = S extends TSchema ? Static<S> : undefined;
export type RouteParams<D extends RouteDef> = StaticOf<D['params']>;
export type RouteQuery<D extends RouteDef> = StaticOf<D['query']>;
export type RouteBody<D extends RouteDef> = StaticOf<D['body']>;
/** What a route answers with: the parsed JSON, or the Response itself for raw bodies. */
export type RouteAnswer<D extends RouteDef> = D['response'] extends TSchema ? Static<D['response']> : Response;

export const isRaw = (r: TSchema | RawAnswer): r is RawAnswer => (r as RawAnswer).raw === true;

/** The route's path as the reference writes it: `{name}` for `:name` and for `*` (by restName), `:` for `::`. */
export function docPath(d: Pick<RouteDef, 'path' | 'restName'>): string {
  if (d.path.includes('*') && !d.restName) throw new Error(`${d.path}: a \`*\` parameter needs a restName for the reference`);
  return d.path
    .replace(/::/g, '\u0000')
    .replace(/:(\w+)/g, '{$1}')
    .replace(/\*/g, `{${d.restName}}`)
    .replaceAll('\u0000', ':');
}

/** The usual HTTP status of each error name. */
export const ERROR_STATUS: Record<ErrorName, number> = {
  invalid_argument: 400,
  file_not_found: 404,
  file_duplicated_name: 409,
  already_exists: 409,
  permission_denied: 403,
  file_space_not_enough: 403,
  file_size_too_large: 400,
  file_hash_mismatch: 400,
  archive_password_wrong: 400,
  task_daily_create_limit: 403,
  monthly_upload_size_exceeded: 403,
  monthly_cloud_download_size_exceeded: 403,
  monthly_download_size_exceeded: 403,
  daily_download_size_exceeded: 403,
  resource_exhausted: 507,
  too_many_requests: 429,
  file_in_recycle_bin: 400,
  sensitive_resource: 403,
  share_not_found: 404,
  failed_precondition: 409,
  invalid_grant: 400,
  unauthenticated: 401,
  authorization_pending: 400,
  slow_down: 400,
  expired_token: 400,
  access_denied: 400,
  two_factor_required: 403,
  invalid_client: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  internal: 500,
  unavailable: 503,
};

/** Errors any route may answer with, whatever it does. */
export const COMMON_ERRORS: Partial<Record<ErrorName, ErrorWhen>> = {
  invalid_argument: { status: [400, 415], when: 'A field is missing, of the wrong type or out of range; the description names it. 415: the body is not JSON.' },
  payload_too_large: 'The request body is larger than the route accepts.',
  resource_exhausted: "The server's disk is full: nothing was stored; reading still works.",
  internal: 'Something failed on the server.',
  unavailable: 'The server cannot reach its database right now; try again (Retry-After says when).',
};

/** The error object (every 4xx and 5xx answer). */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.String({ description: 'The error name: what clients act on.' }),
    error_code: Type.Integer({ description: 'A gRPC-style number for the error name.' }),
    error_description: Type.String({ description: 'What happened, in words a person can read.' }),
    error_uri: Type.String(),
    details: Type.Array(Type.Unknown()),
  },
);

/** Every error a route may answer with, `status → name → when`, its own and the common ones. */
export function routeErrors(d: RouteDef): Map<number, Map<ErrorName, string>> {
  const out = new Map<number, Map<ErrorName, string>>();
  const auth: Partial<Record<ErrorName, ErrorWhen>> =
    d.auth === 'admin'
      ? { unauthenticated: 'No valid access token: sign in, or refresh the token.', permission_denied: "The account is not an operator's, or the token is an app's." }
      : takesBearer(d.auth)
        ? { unauthenticated: 'No valid access token: sign in, or refresh the token.', permission_denied: "A third-party app's token, and the route is not one its scope allows (account security never is)." }
        : {};
  // Route entries refine the common ones per status; a common status the route does not name (415) stays.
  for (const [name, w] of [COMMON_ERRORS, auth, d.errors].flatMap((e) => Object.entries(e)) as [ErrorName, ErrorWhen][]) {
    if (!(name in ERROR_CODES)) throw new Error(`${d.method} ${d.path}: "${name}" is not in the error catalogue`);
    for (const status of typeof w === 'string' ? [ERROR_STATUS[name]] : [w.status].flat()) {
      if (!out.has(status)) out.set(status, new Map());
      out.get(status)!.set(name, typeof w === 'string' ? w : w.when);
    }
  }
  return out;
}

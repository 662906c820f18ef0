/**
 * Request validation: bodies are checked strictly (a number is not a name), query strings coerce types. Two rules hold
 * for every route whatever its schema says, because the databases refuse what breaks them: numbers are safe integers
 * (PostgreSQL's bigint and JavaScript agree on nothing larger), and no string carries a NUL (PostgreSQL's text cannot).
 */
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { badInput } from './errors.js';

type Schema = Record<string, unknown>;

/** A copy of `schema` where every number without bounds is bounded to the safe integers. */
export function boundNumbers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundNumbers);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) out[k] = k === 'enum' || k === 'const' || k === 'default' ? v : boundNumbers(v);
  if (out.type === 'integer' || out.type === 'number') {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = Number.MAX_SAFE_INTEGER;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = Number.MIN_SAFE_INTEGER;
  }
  return out;
}

/** True when a string anywhere in `v` (keys included) holds a NUL. */
export function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (!v || typeof v !== 'object' || depth > 64) return false;
  if (Array.isArray(v)) return v.some((x) => hasNul(x, depth + 1));
  return Object.entries(v).some(([k, x]) => k.includes('\u0000') || hasNul(x, depth + 1));
}

export function installValidators(app: FastifyInstance): void {
  const strict = new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: false });
  const coercing = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(boundNumbers(schema) as Schema));
  app.addHook('preValidation', async (req) => {
    if (hasNul(req.params) || hasNul(req.query) || hasNul(req.body)) throw badInput('The request holds a NUL character, which no name, id or text may contain.');
  });
}

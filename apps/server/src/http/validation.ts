/** Request validation: bodies are checked strictly (a number is not a name), query strings coerce types. */
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';

export function installValidators(app: FastifyInstance): void {
  const strict = new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: false });
  const coercing = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}

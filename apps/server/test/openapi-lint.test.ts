/**
 * The OpenAPI document as tools nobody here wrote read it: Redocly's linter finds no problem (unused or undeclared
 * path parameters, examples that break their schema, duplicate operationIds, a missing license), every example holds
 * against its schema, and the tus endpoint is written as the paths and methods the server answers.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT, DriveFileSchema, type RouteDef } from '@haul/shared';
import { startTestHaul, type TestHaul } from './helper.js';

const run = promisify(execFile);
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

/**
 * Redocly's recommended rules with every warning an error, and the checks this document must pass named outright.
 * info-license-strict (a URL or SPDX identifier) is off: the project has not chosen a license yet (see openapi.ts).
 */
const REDOCLY_CONFIG = `extends:
  - recommended-strict
rules:
  info-license: error
  info-license-strict: off
  path-parameters-defined: error
  operation-operationId-unique: error
  no-invalid-media-type-examples:
    severity: error
    allowAdditionalProperties: false
  no-invalid-parameter-examples: error
  no-invalid-schema-examples: error
`;

let h: TestHaul;
let doc: any;
let dir: string;
beforeAll(async () => {
  h = await startTestHaul();
  doc = (await h.api('GET', '/api/openapi.json')).body;
  dir = mkdtempSync(join(tmpdir(), 'haul-openapi-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h.destroy();
});

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method], params: [...(item.parameters ?? []), ...(item[method].parameters ?? [])] })),
  );

/** Every example in the document with the schema it stands for: bodies, parameters, and `examples` inside schemas. */
function examples(): { where: string; schema: object; value: unknown }[] {
  const out: { where: string; schema: object; value: unknown }[] = [];
  const inSchema = (where: string, schema: unknown) => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Record<string, unknown>;
    if (Array.isArray(s.examples)) for (const value of s.examples) out.push({ where: `${where} (schema examples)`, schema: { ...s, examples: undefined }, value });
    for (const [k, v] of Object.entries(s)) if (k !== 'examples' && k !== 'example' && typeof v === 'object') inSchema(`${where}/${k}`, v);
  };
  const inContent = (where: string, content: Record<string, any> = {}) => {
    for (const [type, media] of Object.entries(content)) {
      if (media.example !== undefined) out.push({ where: `${where} ${type}`, schema: media.schema, value: media.example });
      for (const [name, ex] of Object.entries(media.examples ?? {})) out.push({ where: `${where} ${type} ${name}`, schema: media.schema, value: (ex as any).value });
      inSchema(`${where} ${type}`, media.schema);
    }
  };
  for (const { path, method, op, params } of operations()) {
    const at = `${method.toUpperCase()} ${path}`;
    inContent(`${at} request`, op.requestBody?.content);
    for (const [status, answer] of Object.entries(op.responses ?? {})) inContent(`${at} ${status}`, (answer as any).content);
    for (const p of params) {
      if (p.example !== undefined) out.push({ where: `${at} ${p.in} ${p.name}`, schema: p.schema, value: p.example });
      inSchema(`${at} ${p.in} ${p.name}`, p.schema);
    }
  }
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) inSchema(`#/components/schemas/${name}`, schema);
  return out;
}

describe('the OpenAPI document, linted', () => {
  it('passes redocly lint (recommended, strict) with no problem', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    writeFileSync(join(dir, 'redocly.yaml'), REDOCLY_CONFIG);
    const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    // Exit status 1 means problems were found; the JSON report says which.
    const res = await run(process.execPath, [cli, 'lint', file, '--config', join(dir, 'redocly.yaml'), '--format', 'json'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(res.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('has examples that hold against their schemas, in the contract and in the document', () => {
    // The contract's own examples against the body schema they illustrate, as the server's validator reads it.
    const server = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    for (const [name, def] of Object.entries(CONTRACT) as [string, RouteDef][]) {
      if (def.example === undefined) continue;
      expect(def.body, `${name} has an example but no body`).toBeTruthy();
      expect(server.validate(def.body as object, def.example) ? '' : server.errorsText(server.errors), `${name}'s example`).toBe('');
    }
    // Every example the document shows, as a JSON Schema 2020-12 validator reads it (formats are Redocly's to check).
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const found = examples();
    expect(found.length).toBeGreaterThan(10);
    const broken = found.filter((e) => !ajv.validate(e.schema, e.value)).map((e) => `${e.where}: ${ajv.errorsText(ajv.errors)}`);
    expect(broken).toEqual([]);
  });

  it('declares every path parameter its path names, and no other; operationIds are unique', () => {
    const ids = new Map<string, string>();
    for (const { path, method, op, params } of operations()) {
      const at = `${method.toUpperCase()} ${path}`;
      const named = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const name of named) expect(name, `${at}: a path parameter needs a name clients can fill`).toMatch(/^\w+$/);
      const declared = params.filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared.sort(), at).toEqual(named.sort());
      expect(ids.get(op.operationId), `operationId ${op.operationId}`).toBeUndefined();
      ids.set(op.operationId, at);
    }
  });

  it('names its license', () => {
    expect(doc.info.license?.name).toBeTruthy();
  });

  it("describes a file's hash as what it is: BLAKE3, not a GCID", () => {
    expect(DriveFileSchema.properties.hash.description).toMatch(/BLAKE3/);
    expect(JSON.stringify(doc)).not.toMatch(/GCID/i);
  });
});

describe('the tus endpoint, as documented', () => {
  const upload = '/drive/v1/uploads/{upload_id}';

  it('is written as real paths, one operation for each method the server answers', () => {
    expect(Object.keys(doc.paths).filter((p) => p.includes('*'))).toEqual([]);
    expect(Object.keys(doc.paths[upload]).filter((m) => METHODS.includes(m)).sort()).toEqual(['delete', 'get', 'head', 'options', 'patch']);
    expect(Object.keys(doc.paths['/drive/v1/uploads']).filter((m) => METHODS.includes(m)).sort()).toEqual(['options', 'post']);
    const ops = doc.paths[upload];
    expect(ops.head.operationId).toBe('tusHead');
    expect(ops.get.operationId).toBe('tusGet');
    // HEAD is not GET's twin in words: GET answers bytes, HEAD answers where the upload stands.
    expect(ops.head.description).not.toBe(ops.get.description);
    expect(ops.head.responses['200'].content).toBeUndefined();
  });

  it('documents the tus headers of the requests and of the answers', () => {
    const ops = doc.paths[upload];
    const headerParams = (op: any) => Object.fromEntries(op.parameters.filter((p: any) => p.in === 'header').map((p: any) => [p.name, p.required === true]));
    expect(headerParams(ops.head)).toEqual({ 'Tus-Resumable': true });
    expect(headerParams(ops.patch)).toEqual({ 'Tus-Resumable': true, 'Upload-Offset': true });
    expect(headerParams(ops.delete)).toEqual({ 'Tus-Resumable': true });
    expect(Object.keys(ops.patch.requestBody.content)).toEqual(['application/offset+octet-stream']);
    expect(Object.keys(ops.head.responses['200'].headers)).toEqual(expect.arrayContaining(['Tus-Resumable', 'Upload-Offset', 'Upload-Length', 'Cache-Control']));
    expect(Object.keys(ops.patch.responses['204'].headers)).toEqual(expect.arrayContaining(['Tus-Resumable', 'Upload-Offset', 'Haul-File-Id', 'Haul-Task-Id']));
    expect(Object.keys(ops.options.responses['204'].headers)).toEqual(expect.arrayContaining(['Tus-Version', 'Tus-Extension']));
    expect(ops.head.responses['412']?.description).toContain('failed_precondition');
    expect(ops.patch.responses['409']?.description).toContain('failed_precondition');
  });
});

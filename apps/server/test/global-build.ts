/**
 * Builds the server bundle (scripts/build-server.mjs) once before the suite, when the source changed since the last
 * build: the tests that start a real server process run it as `npm start` does, from apps/server/dist.
 */
// @ts-expect-error: a plain ES module of the repository's scripts, without type declarations.
import { buildServer } from '../../../scripts/build-server.mjs';

export default async function setup(): Promise<void> {
  await buildServer({ ifStale: true, quiet: true });
}

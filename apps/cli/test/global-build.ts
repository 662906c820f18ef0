/**
 * Before the suite: the server's bundle (the tests start it as `npm start` does) and the command line's bundle, each
 * built when its source changed since the last build. bin/haul.mjs then runs the bundle, as after `npm install`.
 */
// @ts-expect-error: a plain ES module of the repository's scripts, without type declarations.
import { buildServer } from '../../../scripts/build-server.mjs';
// @ts-expect-error: a plain ES module of the command line's build, without type declarations.
import { buildCli } from '../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await buildServer({ ifStale: true, quiet: true });
  await buildCli({ ifStale: true, quiet: true });
}

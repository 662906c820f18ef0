// The Firefox build as addons.mozilla.org's own linter (addons-linter, what `web-ext lint` runs) reads it: no error
// and no warning. Firefox itself cannot run here; this is the check its store applies before anyone installs it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import linter from 'addons-linter';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** The linter's findings for an unpacked extension folder. */
async function lint(dir) {
  const instance = linter.createInstance({
    config: { _: [dir], logLevel: 'fatal', stack: false, pretty: false, warningsAsErrors: false, metadata: false, output: 'none', boring: false, selfHosted: false },
    runAsBinary: false,
  });
  const { errors, warnings } = await instance.run();
  return [...errors, ...warnings].map((f) => `${f.code}: ${f.message} (${f.file ?? ''})`);
}

describe('the Firefox build', () => {
  beforeAll(() => {
    const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`The extension did not build:\n${built.stdout}\n${built.stderr}`);
  }, 60_000);

  it('passes Mozilla’s add-on linter with no error and no warning', async () => {
    expect(await lint(join(root, 'dist-firefox'))).toEqual([]);
  }, 60_000);

  it('is checked for real: the Chromium build, without Firefox’s fallbacks, is refused', async () => {
    const findings = await lint(join(root, 'dist'));
    expect(findings.some((f) => f.startsWith('BACKGROUND_SERVICE_WORKER_NOFALLBACK'))).toBe(true);
  }, 60_000);
});

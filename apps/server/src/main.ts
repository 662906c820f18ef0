/** Starts Haul on the configured database and port, in the role given as the first argument or HAUL_ROLE (roles.ts). */
import { buildHaul } from './app.js';
import { loadConfig } from './config.js';
import { reachableUrls } from './http/reachable-urls.js';
import { startJobs } from './jobs.js';
import { startOpsServer } from './ops/ops-server.js';
import { parseRole, roleRuns, type Role } from './roles.js';
import { blake3Description } from './storage/content-hash.js';

let role: Role;
try {
  role = parseRole(process.argv.slice(2));
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
const runs = roleRuns(role);
const config = loadConfig();
const haul = await buildHaul(config, { heartbeat: role });
// An API process (serve) queues work and signals the workers; it runs none of it, nor the periodic jobs.
const stopJobs = runs.jobs ? startJobs(haul.ctx, haul.app.log) : () => undefined;
if (runs.jobs) {
  haul.offline.start();
  haul.media.start();
  haul.archives.start();
  haul.feeds.start();
  haul.telegram.start();
}

// A graceful stop: no new connections; requests in flight finish and running jobs park (back in the queue, so the next
// start takes them up at once instead of after their lease), within HAUL_STOP_TIMEOUT; then the process exits.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    haul.app.log.info({ signal }, 'stopping');
    setTimeout(() => {
      haul.app.log.warn('did not stop in time; exiting anyway (what was in flight resumes on the next start)');
      process.exit(1);
    }, config.stopTimeoutSeconds * 1000).unref();
    stopJobs();
    void haul.close().then(() => process.exit(0));
  });
}

const where = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
// Which BLAKE3 names the blobs: native where its binary loads, else hash-wasm (several times slower).
console.log(blake3Description());
if (runs.http) {
  await haul.app.listen({ port: config.port, host: config.host });
  // Without SMTP, codes (sign-up, a forgotten password) are read by whoever runs the server.
  const mail = config.smtpUrl ? 'sent through HAUL_SMTP_URL' : 'kept in the outbox: haul-admin outbox';
  const jobs = runs.jobs ? '' : '; background jobs: left to worker processes';
  // Every address, so a phone or another computer on the network can be pointed at one (links follow the one used).
  console.log(`Haul is running (metadata: ${where}; mail: ${mail}${jobs}); open it at:\n${reachableUrls(config).map((u) => `  ${u}`).join('\n')}`);
} else {
  // A worker claims work through the database; it opens a port only for health checks and metrics (HAUL_OPS_PORT).
  const c = config;
  if (c.opsPort !== null) await startOpsServer(haul.ctx, haul.metrics, c.host, c.opsPort);
  // Its timers do not hold the process open (they must not delay a stop); this does, until a signal ends it.
  setInterval(() => undefined, 3_600_000);
  const port = c.opsPort !== null ? `; /healthz, /readyz and /metrics on port ${c.opsPort}` : '';
  console.log(`Haul worker is running (metadata: ${where}; cloud downloads ×${c.offlineConcurrency}, transcodes ×${c.mediaConcurrency}, unpacking ×${c.archiveConcurrency}${port}).`);
}

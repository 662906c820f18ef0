/** Starts Haul on the configured database and port. */
import { buildHaul } from './app.js';
import { loadConfig } from './config.js';
import { reachableUrls } from './http/reachable-urls.js';
import { startJobs } from './jobs.js';

const config = loadConfig();
const haul = await buildHaul(config);
const stopJobs = startJobs(haul.ctx, haul.app.log);
haul.offline.start();
haul.media.start();
haul.archives.start();

// A graceful stop: no new connections; requests in flight finish and running jobs park (back in the queue, so the next
// start takes them up at once instead of after their lease), within HAUL_STOP_TIMEOUT; then the process exits.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    haul.app.log.info({ signal }, 'stopping');
    setTimeout(() => {
      haul.app.log.warn('did not stop in time; exiting anyway (what was in flight resumes on the next start)');
      process.exit(1);
    }, config.stopTimeoutSeconds * 1000).unref();
    stopJobs();
    await haul.close();
    process.exit(0);
  });
}

await haul.app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
// Without SMTP, codes (sign-up, a forgotten password) are read by whoever runs the server.
const mail = config.smtpUrl ? 'sent through HAUL_SMTP_URL' : 'kept in the outbox: haul-admin outbox';
// Every address, so a phone or another computer on the network can be pointed at one (links follow the one used).
console.log(`Haul is running (metadata: ${where}; mail: ${mail}); open it at:\n${reachableUrls(config).map((u) => `  ${u}`).join('\n')}`);

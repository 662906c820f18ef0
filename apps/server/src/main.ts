/** Starts Haul on the configured database and port. */
import { buildHaul } from './app.js';
import { loadConfig } from './config.js';
import { startJobs } from './jobs.js';

const config = loadConfig();
const haul = await buildHaul(config);
const stopJobs = startJobs(haul.ctx, haul.app.log);
haul.offline.start();
haul.media.start();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    stopJobs();
    await haul.close();
    process.exit(0);
  });
}

await haul.app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
console.log(`Haul is running at ${config.publicUrl}/drive/ (metadata: ${where})`);

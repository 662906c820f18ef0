// The image's HEALTHCHECK: GET /healthz on this container's port; a worker's on HAUL_OPS_PORT, and a worker without one
// opens no port, so it is healthy while its process runs (the role is HAUL_ROLE or the first argument after the
// server's entry, main.js or main.ts, as the server reads it).
import { readFileSync } from 'node:fs';

const args = (() => {
  try {
    return readFileSync('/proc/1/cmdline', 'utf8').split('\0');
  } catch {
    return [];
  }
})();
const main = args.findIndex((a) => /\bmain\.[jt]s$/.test(a));
const afterMain = main >= 0 ? args[main + 1] : undefined;
const role = (afterMain || process.env.HAUL_ROLE || 'all').toLowerCase();
if (role === 'worker' && !process.env.HAUL_OPS_PORT) process.exit(0);

const port = role === 'worker' ? process.env.HAUL_OPS_PORT : process.env.PORT || '8080';
try {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}

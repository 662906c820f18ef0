/**
 * What one Haul process does. A small site runs everything in one process (`all`); a larger one runs API processes
 * (`serve`: HTTP and the web app, no background work) apart from worker processes (`worker`: cloud downloads,
 * transcodes, unpacking and the periodic jobs, no HTTP at all), all on one PostgreSQL and one data folder.
 */

export const ROLES = ['all', 'serve', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** What a role starts. */
export function roleRuns(role: Role): { http: boolean; jobs: boolean } {
  return { http: role !== 'worker', jobs: role !== 'serve' };
}

/**
 * The role from the first command-line argument, else HAUL_ROLE, else `all`. An unknown one throws, with a message
 * fit to print: a typo must stop the boot, not start a process that silently does nothing (or everything).
 */
export function parseRole(args: readonly string[], env: Record<string, string | undefined> = process.env): Role {
  const fromArg = args[0];
  const raw = (fromArg ?? env.HAUL_ROLE ?? '').trim().toLowerCase();
  if (raw === '') return 'all';
  if ((ROLES as readonly string[]).includes(raw)) return raw as Role;
  const where = fromArg !== undefined ? 'the first argument' : 'HAUL_ROLE';
  throw new Error(`Unknown role "${(fromArg ?? env.HAUL_ROLE ?? '').slice(0, 40)}" (from ${where}): use serve (the HTTP API and web app), worker (background jobs only) or all (both, the default).`);
}

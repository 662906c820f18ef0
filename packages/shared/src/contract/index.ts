/** Every route of the API, by name: the one place a call's shape is written. */
import type { RouteDef } from './define.js';
import { aboutRoutes } from './about.js';
import { accountsRoutes } from './accounts.js';
import { eventsRoutes } from './events.js';
import { filesRoutes } from './files.js';
import { mediaRoutes } from './media.js';
import { sharesRoutes } from './shares.js';
import { tasksRoutes } from './tasks.js';
import { uploadsRoutes } from './uploads.js';

export * from './define.js';
export * from './schema-kit.js';
export * from './files.js';
export { EventListSchema } from './events.js';
export * from './tasks.js';
export { DELETION_BLOCKERS, VERIFICATION_USAGES, type VerificationUsage } from './accounts.js';

export const CONTRACT = {
  ...accountsRoutes,
  ...filesRoutes,
  ...uploadsRoutes,
  ...tasksRoutes,
  ...eventsRoutes,
  ...mediaRoutes,
  ...sharesRoutes,
  ...aboutRoutes,
};
export type Contract = typeof CONTRACT;
export type RouteName = keyof Contract;

for (const [name, def] of Object.entries(CONTRACT) as [string, RouteDef][]) def.operationId = name;

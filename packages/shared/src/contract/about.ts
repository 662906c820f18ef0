/** About routes of the API (see define.ts for how a route is written). */
import { route } from './define.js';

void route;
export const aboutRoutes = {};

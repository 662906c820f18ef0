/**
 * The shared package without its schemas (`@haul/shared/plain`): constants, the error catalogue, the rules and the
 * path filler. Nothing here imports TypeBox, so a bundle that takes its run-time imports from here (the web app, the
 * API client) leaves TypeBox and the contract's schemas out; `@haul/shared` exports all of this beside the contract.
 * Not here: the entities and the user settings, which are schemas.
 */
export * from './constants.js';
export * from './errors.js';
export * from './rules/content-id.js';
export * from './rules/file-type.js';
export * from './rules/archive-names.js';
export * from './rules/format.js';
export * from './rules/grants.js';
export * from './rules/limit-details.js';
export * from './rules/names.js';
export * from './rules/search.js';
export * from './rules/platforms.js';
export * from './rules/validate.js';
export * from './rules/phone.js';
export * from './rules/profile.js';
export * from './rules/feedback.js';
export * from './rules/share-reports.js';
export { fillPath, pathPattern } from './contract/fill-path.js';
export { takesBearer, type Auth } from './contract/auth.js';

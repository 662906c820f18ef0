// What holds no schema is in ./plain.ts, which browser bundles import instead of this (it leaves TypeBox out).
export * from './plain.js';
export * from './entities.js';
export * from './rules/user-settings.js';
export * from './contract/index.js';

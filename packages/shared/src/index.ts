export * from './constants.js';
export * from './errors.js';
export * from './entities.js';
export * from './rules/file-type.js';
export * from './rules/format.js';
export * from './rules/names.js';
export * from './rules/search.js';
export * from './rules/validate.js';

export * from './client.js';
export * from './errors.js';
export * from './session.js';
export * from './hash.js';
export * from './device-login.js';

#!/usr/bin/env node
// The haul command: runs the TypeScript source through tsx, as the server does.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));

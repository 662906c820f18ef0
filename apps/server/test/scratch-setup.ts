// Runs before each test file (vitest's setupFiles), also when files share a worker's modules.
import { afterAll } from 'vitest';
import { removeScratch } from './scratch.js';

afterAll(removeScratch);

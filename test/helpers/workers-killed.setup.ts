/** Vitest set-up file: after each test file, the worker processes it started and left running are killed. */
import { afterAll } from 'vitest';
import { killLeftWorkers } from './procs.js';

afterAll(killLeftWorkers);

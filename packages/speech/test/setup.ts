import { afterAll } from 'vitest';
import { closeNativeBackends } from '../src/engines/espeak/backends.js';

// Each test file's native espeak-ng backends end with it: their launcher processes and the
// effects' data mirrors. A Vitest fork is ended without running its exit handlers, which left a
// mirror in the temporary folder for every file that rendered an effect.
afterAll(() => closeNativeBackends());

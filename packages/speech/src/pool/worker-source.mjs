// Runs pool/worker.ts from source (tests, `npm run bench`, the CLI without a build): Node 20
// cannot load TypeScript itself, so register tsx in this thread first.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');

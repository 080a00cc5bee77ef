// Runs document-worker.ts from source (tests, tsx): Node 20 cannot load TypeScript itself, so
// register tsx in this thread first.
import { register } from 'tsx/esm/api';

register();
await import('./document-worker.ts');

/**
 * The benchmarks' warm server (bench-server.ts) in a process of its own, as a deployment runs
 * it: started with `fork`, it sends `{ base, token }` once it listens, and closes when its
 * parent disconnects. A client measured from another process shares neither its event loop
 * nor its heap.
 */
import { benchServer } from './bench-server.js';

const { app, base, token, dataDir } = await benchServer(process.argv[2] ?? 'process');
process.send?.({ base, token, dataDir });
process.once('disconnect', () => {
  void app.close().then(() => process.exit(0));
});

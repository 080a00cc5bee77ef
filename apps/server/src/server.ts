import { buildApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';

/** Starts the product: one process, the API under /api and the web app for every other path. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp({ config });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const grace = config.shutdownGraceSeconds;
    app.log.info({ signal, graceSeconds: grace }, 'shutting down: finishing requests in flight');
    // A hung request must not keep the process alive forever. Past the grace, the speech
    // requests this process is rendering go back to the queue, so another worker renders them.
    setTimeout(() => {
      app.log.warn('shutdown grace is over: handing the requests in hand back to the queue');
      app
        .handBack()
        .catch((error: unknown) => app.log.error({ err: error }, 'handing back failed'))
        .finally(() => process.exit(1));
    }, grace * 1000).unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { url: config.publicUrl, database: config.database.kind, dataDir: config.dataDir },
    `Parla is ready at ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  console.error('Parla failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

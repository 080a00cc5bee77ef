import type { TestProject } from 'vitest/node';
import { freePort, startServer } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverEnv: Record<string, string>;
    /** Another origin, allowed by the server's CORS_ORIGINS, for a page of a third party's app. */
    appOrigin: string;
  }
}

/** Starts the built product once for the whole suite and stops it (SIGTERM) at the end. */
export default async function setup(project: TestProject) {
  // A browser app on another origin calls the API with a key (specs/openai-browser.test.ts).
  const appOrigin = `http://localhost:${await freePort()}`;
  const server = await startServer({ CORS_ORIGINS: appOrigin });
  project.provide('baseUrl', server.baseUrl);
  project.provide('appOrigin', appOrigin);
  project.provide('serverEnv', server.env);
  return async () => {
    await server.stop();
  };
}

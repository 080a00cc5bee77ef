import type { TestProject } from 'vitest/node';
import { startServer } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverEnv: Record<string, string>;
  }
}

/** Starts the built product once for the whole suite and stops it (SIGTERM) at the end. */
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('baseUrl', server.baseUrl);
  project.provide('serverEnv', server.env);
  return async () => {
    await server.stop();
  };
}

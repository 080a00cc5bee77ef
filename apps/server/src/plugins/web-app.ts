import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface WebAppOptions {
  /** The built React app (apps/web/dist). */
  root: string;
  /**
   * Writes a route's metadata into index.html (features/seo): given the request URL and the
   * file, answers the HTML to send. Without it index.html is sent as it is.
   */
  renderIndex?: (url: string, html: string) => Promise<string>;
}

/**
 * Serves the built web app for every path outside /api: real files as they are (hashed assets
 * cached for a year; the build's brotli or gzip copy when the browser takes it), and
 * index.html for any other path so the client router decides.
 */
export const webAppPlugin = fp(async (app: FastifyInstance, options: WebAppOptions) => {
  const indexFile = path.join(options.root, 'index.html');
  const built = existsSync(indexFile);
  // With CORS_ORIGINS, @fastify/cors answers `Vary: Origin`, which replaced the static files'
  // `Vary: accept-encoding` (the same URL answers brotli, gzip or plain): both are kept.
  app.addHook('onSend', async (_request, reply) => {
    const vary = reply.getHeader('vary');
    if (typeof vary === 'string' && !/accept-encoding/i.test(vary)) {
      reply.header('vary', `${vary}, Accept-Encoding`);
    }
  });
  if (built) {
    await app.register(fastifyStatic, {
      root: options.root,
      wildcard: false,
      index: false,
      // The build writes `.br` and `.gz` beside each file (apps/web/vite.config.ts).
      preCompressed: true,
      // Cache headers are ours (setHeaders), not the plugin's default max-age=0.
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        // The same URL answers brotli, gzip or plain bytes: shared caches must keep them apart.
        res.setHeader('vary', 'accept-encoding');
        res.setHeader(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send({ message: `Not found: ${request.method} ${request.url}` });
    }
    // A bundle this build does not have (an old page after a deploy) is missing, not a route:
    // index.html in its place would fail as a script with a MIME-type error.
    if (request.url.startsWith('/assets/')) {
      return reply.code(404).send({ message: `Not found: ${request.url}` });
    }
    if (!built) {
      return reply
        .code(503)
        .send({ message: 'The web app is not built yet: run npm run build, then restart.' });
    }
    // index.html names the hashed bundles of the current build: always revalidate it.
    reply.header('cache-control', 'no-cache');
    if (options.renderIndex) {
      const html = await readFile(indexFile, 'utf8');
      return reply
        .type('text/html; charset=utf-8')
        .send(await options.renderIndex(request.url, html));
    }
    return reply.sendFile('index.html', { cacheControl: false });
  });
});

import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { ConnectionsConfig } from '../config.js';

/**
 * Fastify's options for the connection bounds (issue 28 item 6): an idle or slow client cannot
 * hold a connection past the headers, request and keep-alive timeouts. Node checks the headers
 * and request timeouts every `connectionsCheckingInterval` (30 s by default: too coarse for a
 * 10 s bound).
 */
export function connectionOptions(connections: ConnectionsConfig) {
  const http: ServerOptions = {
    headersTimeout: connections.headersTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, connections.headersTimeoutMs / 2),
  };
  const trusted = connections.trustProxy;
  return {
    // A hop count trusts that many hops from the socket (as Fastify reads a number).
    trustProxy:
      typeof trusted === 'number' ? (_address: string, hop: number) => hop < trusted : trusted,
    requestTimeout: connections.requestTimeoutMs,
    keepAliveTimeout: connections.keepAliveTimeoutMs,
    http,
  };
}

/** How often a refused connection is said in the log at most (a flood is one line, not 20,000). */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

/**
 * Caps the server's connections, in all and per socket address, and logs refusals: 20,000
 * idle connections made the server unreachable for a minute with nothing logged (issue 28).
 * Past `maxConnections` Node drops new connections itself ('drop'); past the per-address cap
 * the new connection is destroyed here. The per-address cap counts sockets, so behind a
 * trusted proxy it is off by default (every client arrives from the proxy).
 */
export function limitConnections(
  server: Server,
  connections: ConnectionsConfig,
  log: FastifyBaseLogger,
): void {
  server.maxConnections = connections.maxConnections;
  const refused = { total: 0, perAddress: 0, loggedAt: 0 };
  const tell = () => {
    const at = Date.now();
    if (at - refused.loggedAt < REFUSAL_LOG_INTERVAL_MS) return;
    refused.loggedAt = at;
    log.warn(
      {
        refusedAtMaxConnections: refused.total,
        refusedPerAddress: refused.perAddress,
        maxConnections: connections.maxConnections,
        perAddress: connections.perAddress,
      },
      'connections refused: the connection limit is reached',
    );
  };
  server.on('drop', () => {
    refused.total += 1;
    tell();
  });
  if (connections.perAddress === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > connections.perAddress) {
      refused.perAddress += 1;
      tell();
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

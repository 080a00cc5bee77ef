import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../services/conversion/conversion-service.js';
import { visitorId } from '../services/conversion/visitor.js';

/** The conversion's caller of a request: its user (if its credentials say one), else its visitor. */
export async function callerOf(request: FastifyRequest, reply: FastifyReply): Promise<Caller> {
  return {
    user: await request.server.resolveUser(request),
    visitor: () => visitorId(request, reply),
    ip: request.ip,
    log: request.log,
  };
}

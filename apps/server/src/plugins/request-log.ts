import type { Config } from '../config.js';

/**
 * Secrets that travel in URLs: the single-use keys of the mailed links (reset password,
 * validate email; API and web paths) and any `key`, `token` or `code` query parameter. A log
 * reader must not be able to open someone's reset link (issue 28 item 7).
 */
const SECRET_SEGMENT =
  /(\/(?:reset_password|validate_email_address|reset-password|validate-email-address)\/)[^/?#]+/gi;
const SECRET_QUERY = /([?&](?:key|token|code|api_key)=)[^&#]*/gi;

/** The URL as the logs may show it. */
export function redactedUrl(url: string): string {
  return url.replace(SECRET_SEGMENT, '$1[redacted]').replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * The logger's options: request lines carry the URL without its secrets; credentials in
 * headers are redacted. Bodies are never logged. `stream` is where lines go (tests read them).
 */
export function loggerOptions(config: Config, stream?: NodeJS.WritableStream) {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
    serializers: {
      req: (request: {
        method: string;
        url: string;
        host: string;
        ip: string;
        socket?: { remotePort?: number };
      }) => ({
        method: request.method,
        url: redactedUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    // LOG_FORMAT=pretty: one readable line per event for a person at a terminal.
    ...(config.logFormat === 'pretty' && !stream && { transport: { target: 'pino-pretty' } }),
    ...(stream && { stream }),
  };
}

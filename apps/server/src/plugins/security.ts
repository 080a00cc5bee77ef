import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The Content-Security-Policy the web app runs under: everything from our own origin. Mantine
 * sets style attributes, hence 'unsafe-inline' for styles only; audio plays from blob: URLs.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  mediaSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'", 'data:'],
  // blob: lets the page read back audio it holds as an object URL (a reopened saved file).
  connectSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

/**
 * What Stripe.js needs when the card field is Stripe's (a publishable key is configured):
 * its script, its card frames and its API (Stripe, "Content Security Policy" in Security at
 * Stripe). The built-in test provider needs none of it.
 */
export const STRIPE_SOURCES = {
  scriptSrc: ['https://js.stripe.com'],
  frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com'],
  connectSrc: ['https://api.stripe.com'],
};

export function contentSecurityPolicy({ stripe }: { stripe: boolean }): Record<string, string[]> {
  if (!stripe) return CONTENT_SECURITY_POLICY;
  return {
    ...CONTENT_SECURITY_POLICY,
    scriptSrc: [...CONTENT_SECURITY_POLICY.scriptSrc, ...STRIPE_SOURCES.scriptSrc],
    frameSrc: ["'self'", ...STRIPE_SOURCES.frameSrc],
    connectSrc: [...CONTENT_SECURITY_POLICY.connectSrc, ...STRIPE_SOURCES.connectSrc],
  };
}

/** Paths other origins may call when CORS_ORIGINS allows them: the API, not the pages. */
const CROSS_ORIGIN_PATHS = /^\/(api|v1)(\/|$)/;

/** The headers OpenAI's SDKs (Stainless-generated) add to a request. */
const OPENAI_SDK_HEADERS = [
  'X-Stainless-Arch',
  'X-Stainless-Lang',
  'X-Stainless-OS',
  'X-Stainless-Package-Version',
  'X-Stainless-Retry-Count',
  'X-Stainless-Runtime',
  'X-Stainless-Runtime-Version',
  'X-Stainless-Timeout',
  'X-Stainless-Helper-Method',
  'OpenAI-Organization',
  'OpenAI-Project',
  'OpenAI-Beta',
];

export const securityPlugin = fp(
  async (
    app: FastifyInstance,
    options: {
      stripe: boolean;
      /** CORS_ORIGINS: origins whose browser apps may call the API (issue 16); `*` for any. */
      corsOrigins?: readonly string[];
    },
  ) => {
    const origins = options.corsOrigins ?? [];
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: contentSecurityPolicy({ stripe: options.stripe }),
      },
      // Audio may be embedded (<audio src>) by the allowed origins.
      crossOriginResourcePolicy: { policy: origins.length > 0 ? 'cross-origin' : 'same-origin' },
    });
    if (origins.length === 0) return;
    const any = origins.includes('*');
    await app.register(cors, {
      delegator: (request, callback) => {
        if (!CROSS_ORIGIN_PATHS.test(request.url ?? '')) {
          callback(null, { origin: false });
          return;
        }
        callback(null, {
          // With `*`, any origin, and never with credentials (cookies); keys go in headers.
          origin: any ? '*' : [...origins],
          credentials: !any,
          methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
          allowedHeaders: [
            'Authorization',
            'X-API-Key',
            'Content-Type',
            'Accept',
            'Idempotency-Key',
            'Range',
            // What OpenAI's official SDKs send with every call (a browser app using one).
            ...OPENAI_SDK_HEADERS,
          ],
          exposedHeaders: [
            'Content-Length',
            'Content-Range',
            'X-Parla-Characters',
            'X-Parla-Duration',
            'X-Parla-Audio-Path',
            'X-Parla-Marks-Path',
            'X-Parla-Marks-Complete',
            'X-Parla-Subtitles-Path',
            'Idempotent-Replayed',
            'X-Parla-Warnings',
            'X-Request-Id',
          ],
          maxAge: 600,
        });
      },
    });
  },
);

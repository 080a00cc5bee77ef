import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const DESCRIPTION = `Text-to-speech conversion, accounts, plans, saved files and content.

## Authentication

Scripts and other apps use an **API key**: create one on My Account → API keys (it is shown
once), then send it with every call, as \`Authorization: Bearer parla_…\` or
\`X-API-Key: parla_…\`. A key converts, lists voices and reads saved files with your plan's
characters and limits; it cannot change your email, password, billing or keys, nor delete the
account. The web app signs in with a login token (\`POST /api/auth/login\`, same header).
Anonymous visitors convert within the free limits, counted by a signed cookie.

\`\`\`sh
curl -H "Authorization: Bearer $PARLA_KEY" -H 'Content-Type: application/json' \\
  -d '{"text": "Hello from Parla."}' -o hello.mp3 https://parla.example.com/api/v1/speech
\`\`\`

OpenAI's SDKs work against \`/v1\` (\`POST /v1/audio/speech\`) with the same key.`;

/** `getConvertorVoices` for GET /api/convertor/voices: an operation's id from its route. */
export function operationIdOf(method: string, url: string): string {
  const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const parts = url
    .replace(/^\/(api\/)?/, '')
    .split('/')
    .filter(Boolean);
  const words = parts
    .filter((part) => !part.startsWith(':'))
    .flatMap((part) => part.split(/[_-]+/))
    .map((word) => title(word.replace(/\W/g, '')));
  const params = parts.filter((part) => part.startsWith(':')).map((part) => title(part.slice(1)));
  const by = params.length > 0 ? `By${params.join('And')}` : '';
  return `${method.toLowerCase()}${words.join('')}${by}`;
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
}
interface OpenApiResponse {
  content?: Record<string, { schema?: unknown }>;
}

/**
 * Error answers are JSON whatever the route's success is: a route that `produces` audio
 * declares its media types for every status, which typed its 4xx and 5xx as audio.
 */
export function errorsAsJson<T extends object>(document: T): T {
  for (const item of Object.values((document as OpenApiDocument).paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^[45]/.test(status) || !response.content) continue;
        const schema = Object.values(response.content)[0]?.schema;
        response.content = { 'application/json': { schema } };
      }
    }
  }
  return document;
}

/** OpenAPI document generated from the routes' zod schemas, browsable at /api/docs. */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Parla API', description: DESCRIPTION, version: '1.0.0' },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (parla_…) or a login token',
          },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          visitorCookie: { type: 'apiKey', in: 'cookie', name: 'parla_visitor' },
        },
      },
    },
    // Every operation has an id (for generated clients): its own, or one made from its route.
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const schema = transformed.schema as { operationId?: string };
      if (!schema.operationId) {
        schema.operationId = operationIdOf(String(input.route.method), input.url);
      }
      return transformed;
    },
    transformObject: (documents) =>
      'openapiObject' in documents
        ? errorsAsJson(documents.openapiObject)
        : documents.swaggerObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Swagger UI sets inline styles on its own elements; allow them on the docs pages only.
    transformStaticCSP: (header) =>
      header.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
  });
});

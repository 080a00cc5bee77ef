import {
  ADMIN_CONTENT_MESSAGES,
  AdminArticleInputSchema,
  AdminContentDocumentSchema,
  AdminContentImageInputSchema,
  AdminContentImagesSchema,
  type AdminContentList,
  AdminContentListSchema,
  AdminContentParamsSchema,
  AdminContentPreviewInputSchema,
  AdminContentPreviewSchema,
  AdminContentPublishSchema,
  AdminContentSourceSchema,
  AdminPageInputSchema,
  AdminRevisionParamsSchema,
  type CatalogueCounts,
  CONTENT_IMAGE_MAX_BYTES,
  DEFAULT_LANGUAGE,
  ErrorResponseSchema,
  fillCatalogueCounts,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import { createAuditLog } from '../../services/admin/audit-log.js';
import {
  type ContentDocuments,
  ContentInputError,
  type DocumentKey,
} from '../../services/content/documents.js';
import { type ContentImages, isImageOfItsType } from '../../services/content/images.js';
import { IMAGE_ROUTE } from '../../services/content/loader.js';
import { renderMarkdown } from '../../services/content/markdown.js';
import type { ContentStore } from '../../services/content/repository.js';

export interface AdminContentOptions {
  db: Db;
  documents: ContentDocuments;
  images: ContentImages;
  /** Told when visitors' content changed: every server reads it again. */
  store: ContentStore;
  /** The voice catalogue's counts, for the `{{voices}}`/`{{languages}}` of a preview. */
  catalogueCounts: () => Promise<CatalogueCounts>;
}

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const errors = { '4xx': ErrorResponseSchema };

const actorOf = (request: FastifyRequest) => ({ id: request.user.id, email: request.user.email });

/** A 4xx naming the field, in the shape of the validation errors. */
function refuse(reply: FastifyReply, error: unknown) {
  if (!(error instanceof ContentInputError)) throw error;
  return reply
    .code(error.status)
    .send({ message: error.message, errors: [{ path: error.path, message: error.message }] });
}

/**
 * The console's Content (issue 31 §2, decision 054), under the console's guard (routes.ts):
 * pages and articles of every language as drafts, published now or at a time, with revisions.
 */
export const adminContentRoutes: FastifyPluginAsyncZod<AdminContentOptions> = async (
  app,
  options,
) => {
  const { db, documents, store, images } = options;

  const listImages = async () => ({
    images: (await images.names()).map((name) => ({ name, src: `${IMAGE_ROUTE}/${name}` })),
  });

  async function knownLanguage(key: DocumentKey) {
    const found = await db
      .selectFrom('content_languages')
      .select('code')
      .where('code', '=', key.language)
      .executeTakeFirst();
    if (!found) {
      throw new ContentInputError(
        404,
        'language',
        ADMIN_CONTENT_MESSAGES.unknownLanguage(key.language),
      );
    }
  }

  app.get(
    '/content',
    {
      schema: {
        tags,
        summary:
          'Every page and article of every language, with its state (published, draft, scheduled)',
        security: bearer,
        response: { 200: AdminContentListSchema, ...errors },
      },
    },
    async (): Promise<AdminContentList> => {
      const languages = await db
        .selectFrom('content_languages')
        .select(['code', 'name', 'direction'])
        .orderBy('position')
        .execute();
      return { languages, items: await documents.list() };
    },
  );

  app.post(
    '/content/preview',
    {
      schema: {
        tags,
        summary:
          'A Markdown body and a page’s sections as the site shows them (the same renderer, sanitiser and counts)',
        security: bearer,
        body: AdminContentPreviewInputSchema,
        response: { 200: AdminContentPreviewSchema, ...errors },
      },
    },
    async (request) => {
      const { body, sections = [], language = DEFAULT_LANGUAGE } = request.body;
      const shown = sections.map((section) => ({
        ...section,
        visibility: section.visibility ?? ('visible' as const),
      }));
      // The counts in the page's language, as the site writes them (features/content/routes.ts).
      const json = JSON.stringify(shown);
      const locale = language === DEFAULT_LANGUAGE ? 'en' : language;
      return {
        html: renderMarkdown(body),
        sections: json.includes('{{')
          ? (JSON.parse(
              fillCatalogueCounts(json, await options.catalogueCounts(), locale),
            ) as typeof shown)
          : shown,
      };
    },
  );

  app.get(
    '/content/images',
    {
      schema: {
        tags,
        summary: 'The pictures covers and Markdown may use: shipped in content/images and uploaded',
        security: bearer,
        response: { 200: AdminContentImagesSchema, ...errors },
      },
    },
    listImages,
  );

  app.post(
    '/content/images',
    {
      // The picture travels in base64 inside JSON: room for the largest one allowed.
      bodyLimit: Math.ceil(CONTENT_IMAGE_MAX_BYTES / 3) * 4 + 64 * 1024,
      schema: {
        tags,
        summary:
          'Upload a picture (base64) to the configured storage; every server serves it under /api/content/images/',
        security: bearer,
        body: AdminContentImageInputSchema,
        response: { 200: AdminContentImagesSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { name } = request.body;
      const bytes = Buffer.from(request.body.data, 'base64');
      if (!isImageOfItsType(name, bytes)) {
        return refuse(
          reply,
          new ContentInputError(400, 'data', ADMIN_CONTENT_MESSAGES.imageNotOfType(name)),
        );
      }
      if (await images.exists(name)) {
        return refuse(
          reply,
          new ContentInputError(409, 'name', ADMIN_CONTENT_MESSAGES.imageTaken(name)),
        );
      }
      await images.put(name, bytes);
      await createAuditLog(db).record({
        actor: actorOf(request),
        action: 'content.image',
        targetType: 'content',
        targetId: `images/${name}`,
        before: null,
        after: { name, bytes: bytes.length },
      });
      return listImages();
    },
  );

  app.get(
    '/content/:kind/:language/:slug',
    {
      schema: {
        tags,
        summary: 'A page or article: its draft, what visitors see, and its revisions',
        security: bearer,
        params: AdminContentParamsSchema,
        response: { 200: AdminContentDocumentSchema, ...errors },
      },
    },
    async (request, reply) => {
      try {
        return await documents.get(request.params);
      } catch (error) {
        return refuse(reply, error);
      }
    },
  );

  app.put(
    '/content/:kind/:language/:slug',
    {
      schema: {
        tags,
        summary:
          'Save the draft of a page or article (a new translation when the language has none); visitors see it once published',
        security: bearer,
        params: AdminContentParamsSchema,
        // The front matter's schema depends on the kind: checked below with the contract's.
        body: AdminContentSourceSchema,
        response: { 200: AdminContentDocumentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const key = request.params;
      // Any text of the front matter reaches the database: none may hold a NUL (PostgreSQL).
      if (JSON.stringify(request.body).includes('\\u0000')) {
        const message = 'front_matter must not contain a NUL character (\\u0000).';
        return reply.code(400).send({ message, errors: [{ path: 'front_matter', message }] });
      }
      const schema = key.kind === 'pages' ? AdminPageInputSchema : AdminArticleInputSchema;
      const parsed = schema.safeParse(request.body);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => {
          const path = issue.path.map(String).join('.');
          return { path, message: `${path}: ${issue.message}` };
        });
        return reply.code(400).send({ message: issues[0]?.message ?? 'invalid', errors: issues });
      }
      try {
        await knownLanguage(key);
        await documents.save(key, request.body, actorOf(request));
        return await documents.get(key);
      } catch (error) {
        return refuse(reply, error);
      }
    },
  );

  app.post(
    '/content/:kind/:language/:slug/publish',
    {
      schema: {
        tags,
        summary:
          'Publish the draft now (every server shows it at once), or at a later time (scheduled)',
        security: bearer,
        params: AdminContentParamsSchema,
        body: AdminContentPublishSchema,
        response: { 200: AdminContentDocumentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { at } = request.body;
      try {
        const shown = await documents.publish(
          request.params,
          at ? new Date(at) : null,
          actorOf(request),
        );
        if (shown) await store.changed();
        return await documents.get(request.params);
      } catch (error) {
        return refuse(reply, error);
      }
    },
  );

  app.post(
    '/content/:kind/:language/:slug/revisions/:id/restore',
    {
      schema: {
        tags,
        summary: 'Make an older revision the draft again (publish it to show it)',
        security: bearer,
        params: AdminRevisionParamsSchema,
        response: { 200: AdminContentDocumentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { id, ...key } = request.params;
      try {
        await documents.restore(key, id, actorOf(request));
        return await documents.get(key);
      } catch (error) {
        return refuse(reply, error);
      }
    },
  );
};

/**
 * Import boundaries, checked by dependency-cruiser on every `npm test` (and `npm run
 * boundaries`): docs/decisions/030-import-boundaries.md says why and how to change them.
 * @type {import('dependency-cruiser').IConfiguration}
 */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle makes two modules one unit that cannot be read, tested or loaded apart. ' +
        'Move what both need into a third module they both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'server-feature-to-feature',
      severity: 'error',
      comment:
        'A server feature never imports another feature (CONVENTIONS §3). What several ' +
        'features need is a service (src/services/) or a library (src/lib/) built once in ' +
        'app.ts and handed in.',
      from: { path: '^apps/server/src/features/([^/]+)/' },
      to: { path: '^apps/server/src/features/', pathNot: '^apps/server/src/features/$1/' },
    },
    {
      name: 'server-shared-to-feature',
      severity: 'error',
      comment:
        'lib/, plugins/, services/ and http/ are what features build on: they never import a ' +
        'feature (decision 031).',
      from: { path: '^apps/server/src/(lib|plugins|services|http)/' },
      to: { path: '^apps/server/src/features/' },
    },
    {
      name: 'server-services-without-http',
      severity: 'error',
      comment:
        'A service knows nothing of Fastify (decision 031): no Fastify import, no http/ adapter, ' +
        'no plugin. Routes and http/ turn a request into what the service takes.',
      from: { path: '^apps/server/src/services/' },
      to: {
        path: [
          '^apps/server/src/(http|plugins)/',
          '(^|/node_modules/)(fastify|fastify-[^/]+|@fastify/[^/]+)(/|$)',
        ],
      },
    },
    {
      name: 'server-lib-at-the-bottom',
      severity: 'error',
      comment:
        'lib/ is infrastructure with no product rule (decision 031): it imports no service, ' +
        'http/ adapter or plugin.',
      from: { path: '^apps/server/src/lib/' },
      to: { path: '^apps/server/src/(services|http|plugins)/' },
    },
    {
      name: 'web-feature-to-feature',
      severity: 'error',
      comment:
        'A web feature never imports another feature (CONVENTIONS §2, bulletproof-react): ' +
        'shared things move to components/, lib/ or hooks/.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-shared-to-feature',
      severity: 'error',
      comment:
        'components/, lib/ and hooks/ are what web features build on: they never import one.',
      from: { path: '^apps/web/src/(components|lib|hooks)/' },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'speech-without-http-or-apps',
      severity: 'error',
      comment:
        'The speech library knows nothing of HTTP servers or of the apps (ARCHITECTURE.md): ' +
        'it is usable on its own.',
      from: { path: '^packages/speech/' },
      to: {
        path: [
          '^apps/',
          // Installed (resolved into node_modules) or not (the bare name stays).
          '(^|/node_modules/)(fastify|fastify-[^/]+|@fastify/[^/]+|express|koa|@koa/[^/]+|@hapi/[^/]+|hono|@hono/[^/]+|restify|polka|h3|@nestjs/[^/]+)(/|$)',
        ],
      },
    },
    {
      name: 'contract-imports-no-workspace',
      severity: 'error',
      comment:
        'packages/contract is the single source of shapes and rules: every workspace imports it, ' +
        'it imports none of them.',
      from: { path: '^packages/contract/' },
      to: { path: '^(apps|packages|e2e)/', pathNot: '^packages/contract/' },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(dist|coverage)/' },
    // Type-only imports couple modules too (and a cycle of types is still a cycle to read).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // Workspace packages resolve to their sources, as the tests and the dev server see them.
    enhancedResolveOptions: {
      conditionNames: ['@parla/source', 'import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

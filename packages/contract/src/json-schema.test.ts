import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import * as contract from './index.js';

/**
 * The server turns these schemas into its OpenAPI document (fastify-type-provider-zod), so
 * each must be representable as JSON Schema: requests in input mode, answers in output mode.
 */
const schemas: Array<[string, z.core.$ZodType]> = [];
for (const [name, value] of Object.entries(contract) as Array<[string, unknown]>) {
  if (name.endsWith('Schema') && value instanceof z.core.$ZodType) schemas.push([name, value]);
}

describe('every schema converts to JSON Schema', () => {
  it('finds the schemas', () => {
    expect(schemas.length).toBeGreaterThan(60);
  });

  it.each(schemas)('%s (input)', (_name, schema) => {
    expect(() => z.toJSONSchema(schema, { io: 'input' })).not.toThrow();
  });

  // Request-only schemas (bodies, forms, queries, params and the fields only they use) may
  // transform what they receive; everything else is an answer or part of one.
  const requestOnly = /Input|Form|Query|Params|^LanguageCodeSchema$|^CheckoutTypeSchema$/;
  it.each(schemas.filter(([name]) => !requestOnly.test(name)))('%s (output)', (_name, schema) => {
    expect(() => z.toJSONSchema(schema, { io: 'output' })).not.toThrow();
  });
});

import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StudentSummaryListSchema } from '../../shared/schemas/reports';
import { changesValues, responseSerializerCompiler } from './response-serializer';

const compile = (schema: unknown) => responseSerializerCompiler({ schema, method: 'GET', url: '/api/x', httpStatus: '200' });

describe('the response serializer', () => {
  it('knows a schema that only checks from one that changes values, however deep', () => {
    expect(changesValues(StudentSummaryListSchema)).toBe(false);
    expect(changesValues(z.object({ a: z.string().trim(), b: z.array(z.number().int()).optional(), c: z.enum(['x']).nullable() }))).toBe(false);
    expect(changesValues(z.object({ a: z.array(z.object({ b: z.string().transform((v) => v.length) })) }))).toBe(true);
    const codec = z.codec(z.string(), z.number(), { decode: Number, encode: String });
    expect(changesValues(z.object({ a: z.union([z.null(), z.array(codec)]) }))).toBe(true);
    expect(changesValues(z.object({ a: z.string().default('x') }))).toBe(true);
    expect(changesValues(z.record(z.string(), z.tuple([z.string(), z.number().catch(0)])))).toBe(true);
    const tree: z.ZodType = z.lazy(() => z.object({ name: z.string(), children: z.array(tree) }));
    expect(changesValues(tree)).toBe(false);
  });

  it('sends what the schema names and nothing else', () => {
    const serialize = compile(StudentSummaryListSchema);
    const row = { pin: '23A51A05301', name: 'Meghana "M" Gupta', present: 'Low', presentDays: 6, absentDays: 4, percentage: 60, className: 'CSE3' };
    const text = serialize([{ ...row, passwordHash: 'secret' }]);
    expect(JSON.parse(text)).toEqual([row]);
    expect(text).not.toContain('secret');
  });

  it('refuses an answer its schema does not allow, as a serialization error', () => {
    const serialize = compile(StudentSummaryListSchema);
    let thrown: unknown;
    try {
      serialize([{ pin: 1 }]);
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
  });

  it('runs a codec backwards, as before, where a schema has one', () => {
    const codec = z.codec(z.string(), z.number(), { decode: Number, encode: (value) => `#${value}` });
    expect(JSON.parse(compile(z.object({ n: codec }))({ n: 7 }))).toEqual({ n: '#7' });
    // And takes a schema wrapped as fastify-type-provider-zod accepts it.
    expect(compile({ properties: z.object({ a: z.string() }) })({ a: 'b', c: 'd' })).toBe('{"a":"b"}');
  });
});

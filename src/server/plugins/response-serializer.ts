import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';

type AnySchema = z.core.$ZodType;

function isSchema(value: unknown): value is AnySchema {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** Definitions whose parsing changes a value (or fills one in) rather than only checking it. */
const CHANGING = new Set(['transform', 'default', 'prefault', 'catch']);

/**
 * Whether parsing `schema` could give anything but its input (less the keys it does not name):
 * a transform, a codec, a default or a fallback anywhere inside it. Unknown shapes count as checks.
 */
export function changesValues(schema: AnySchema, seen = new Set<AnySchema>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (CHANGING.has(def.type) || (def.type === 'pipe' && typeof def.transform === 'function')) return true;
  const inner: unknown[] = def.type === 'lazy' && typeof def.getter === 'function' ? [(def.getter as () => unknown)()] : [];
  for (const value of Object.values(def)) {
    if (isSchema(value)) inner.push(value);
    else if (Array.isArray(value)) inner.push(...value);
    else if (typeof value === 'object' && value !== null) inner.push(...Object.values(value));
  }
  return inner.some((value) => isSchema(value) && changesValues(value, seen));
}

/** A route's response schema, bare or as fastify-type-provider-zod accepts it. */
function resolve(schema: unknown): AnySchema {
  if (isSchema(schema)) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (isSchema(properties)) return properties;
  throw new Error(`A response schema is not a zod schema: ${JSON.stringify(schema)}`);
}

/**
 * Answers are checked against their route's response schema and cut to the keys it names, as
 * fastify-type-provider-zod's serializer does. That one encodes (runs the schema backwards, for
 * codecs); zod compiles parsing into straight-line code but walks encoding value by value, four
 * times the work for the list of students below 75% (212 of them in the demo data). A schema that
 * only checks gives the same result either way, so those are parsed; one with a transform, codec,
 * default or fallback is encoded, as before.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  const zodSchema = resolve(schema);
  const encode = changesValues(zodSchema);
  const run = encode
    ? (data: unknown) => (zodSchema as z.ZodType).safeEncode(data as never)
    : (data: unknown) => (zodSchema as z.ZodType).safeParse(data);
  return (data: unknown) => {
    const result = run(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

import { z } from '../../shared/schemas/zod';
import { ApiError, ContractMismatchError, request, requestTagged, send, type RequestOptions } from './http';

export { ApiError, CONTRACT_MISMATCH_MESSAGE, ContractMismatchError, UNREACHABLE_MESSAGE, type RequestOptions, type TaggedAnswer } from './http';

/** The field errors of a refused request, by field: the server names them by path (`body.email`). */
export function fieldErrorsOf(error: unknown): { field: string; message: string }[] {
  if (!(error instanceof ApiError)) return [];
  return (error.errors ?? []).map((issue) => ({ field: issue.path.split('.').pop() ?? '', message: issue.message }));
}

/** The answer of a 204: nothing. */
export const NoContentSchema = z.undefined();

/**
 * The portal API, called with the sign-in cookie. Every answer is checked against the contract's
 * zod schema (src/shared/schemas) before anyone sees it. Throws ApiError for a refusal (its
 * status and the server's message), for an unreachable server (status 0) and, as
 * ContractMismatchError, for an answer that does not match the schema.
 */
export const api = {
  get: <T>(path: string, schema: z.ZodType<T>, options?: RequestOptions) => request('GET', path, undefined, schema, options),
  post: <T>(path: string, body: unknown, schema: z.ZodType<T>, options?: RequestOptions) => request('POST', path, body, schema, options),
  put: <T>(path: string, body: unknown, schema: z.ZodType<T>, options?: RequestOptions) => request('PUT', path, body, schema, options),
  patch: <T>(path: string, body: unknown, schema: z.ZodType<T>, options?: RequestOptions) => request('PATCH', path, body, schema, options),
  /** A GET whose answer's ETag the caller needs (a register's revision): `{ data, etag }`. */
  getTagged: <T>(path: string, schema: z.ZodType<T>, options?: RequestOptions) => requestTagged('GET', path, undefined, schema, options),
  /** A PUT with its answer's ETag. */
  putTagged: <T>(path: string, body: unknown, schema: z.ZodType<T>, options?: RequestOptions) => requestTagged('PUT', path, body, schema, options),
  /** A 204 answer: resolves to undefined. */
  delete: (path: string, options?: RequestOptions): Promise<void> => request('DELETE', path, undefined, NoContentSchema, options),
  /**
   * A file, e.g. a PDF. Fetched rather than linked so that a refusal is shown as a message instead
   * of being saved as a broken file; an answer of another type is a contract mismatch.
   */
  blob: async (path: string, type: string, options: RequestOptions = {}): Promise<Blob> => {
    const response = await send('GET', path, undefined, type, options);
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.toLowerCase().startsWith(type)) {
      throw new ContractMismatchError(response.status, `GET ${path}`, new Error(`expected ${type}, got ${contentType || 'no type'}`));
    }
    return response.blob();
  },
};

import { z } from 'zod';
import { ErrorSchema, type ApiErrorBody } from '../../shared/schemas/common';

/** An error answered by the API, with its status and the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: ApiErrorBody['errors'] = undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ApiError';
  }
}

export const CONTRACT_MISMATCH_MESSAGE = 'The server sent an answer this page does not understand. Please reload the page and try again.';
export const UNREACHABLE_MESSAGE = 'Cannot reach the server. Check your connection and try again.';

/**
 * A successful answer that does not match the contract: a page and a server of different
 * releases, or a proxy's page in place of the API's answer. Asking again will not help.
 * The zod error is kept as the cause, for whoever debugs it.
 */
export class ContractMismatchError extends ApiError {
  constructor(
    status: number,
    readonly endpoint: string,
    cause: unknown,
  ) {
    super(status, CONTRACT_MISMATCH_MESSAGE, undefined, { cause });
    this.name = 'ContractMismatchError';
  }
}

/** The field errors of a refused request, by field: the server names them by path (`body.email`). */
export function fieldErrorsOf(error: unknown): { field: string; message: string }[] {
  if (!(error instanceof ApiError)) return [];
  return (error.errors ?? []).map((issue) => ({ field: issue.path.split('.').pop() ?? '', message: issue.message }));
}

/** The answer of a 204: nothing. */
export const NoContentSchema = z.undefined();

export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function send(method: Method, path: string, body: unknown, accept: string, { signal }: RequestOptions): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept } : { 'content-type': 'application/json', accept },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, UNREACHABLE_MESSAGE);
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page, say): the schema will refuse it.
    return text;
  }
}

/** The error of a refused request, with the server's `{ message, errors }` when the body has that shape. */
async function errorOf(response: Response): Promise<ApiError> {
  const parsed = ErrorSchema.safeParse(await readJson(response).catch(() => undefined));
  return parsed.success
    ? new ApiError(response.status, parsed.data.message, parsed.data.errors)
    : new ApiError(response.status, `Request failed (${response.status})`);
}

async function request<T>(method: Method, path: string, body: unknown, schema: z.ZodType<T>, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, body, 'application/json', options);
  const parsed = schema.safeParse(await readJson(response));
  if (!parsed.success) throw new ContractMismatchError(response.status, `${method} ${path}`, parsed.error);
  return parsed.data;
}

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

import { t } from '@lingui/core/macro';
import type { ApiErrorBody } from '../../shared/schemas/common';
import { currentLanguage } from '../i18n/i18n';
import { serverText } from '../i18n/server-text';

/**
 * Calling the portal API: the request, the refusal and the check of the answer, without the
 * schema library. The app checks answers with the contract's zod schemas (api-client.ts); the
 * sign-in page, which everyone loads first, with the plain checks of shared/sign-in-answers.ts.
 */

/**
 * An error answered by the API, with its status and the server's message. The message and the
 * fields' problems are in the language shown (serverText); `said` keeps the server's own words.
 */
export class ApiError extends Error {
  readonly said: string;
  readonly errors: ApiErrorBody['errors'];

  constructor(
    readonly status: number,
    message: string,
    errors: ApiErrorBody['errors'] = undefined,
    options?: ErrorOptions,
    /** The refusal's whole body as read, for refusals that say more than a message (a register's 412 names its conflicts). */
    readonly body: unknown = undefined,
  ) {
    super(serverText(message), options);
    this.said = message;
    this.errors = errors?.map((issue) => ({ ...issue, message: serverText(issue.message) }));
    this.name = 'ApiError';
  }
}

export const CONTRACT_MISMATCH_MESSAGE = 'The server sent an answer this page does not understand. Please reload the page and try again.';
export const UNREACHABLE_MESSAGE = 'Cannot reach the server. Check your connection and try again.';

/**
 * A successful answer that does not match the contract: a page and a server of different
 * releases, or a proxy's page in place of the API's answer. Asking again will not help.
 * The check's error is kept as the cause, for whoever debugs it.
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

/** What an answer is checked with: a zod schema, or a plain check of the same shape. */
export interface AnswerCheck<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Headers beside the content type and accept (a save's Idempotency-Key and If-Match). */
  headers?: Record<string, string> | undefined;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function send(method: Method, path: string, body: unknown, accept: string, { signal, headers }: RequestOptions): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      // The language on screen: what the server writes for the reader (a notice, say) follows it
      // when the account has not chosen one.
      headers: { 'accept-language': currentLanguage(), ...headers, ...(body === undefined ? { accept } : { 'content-type': 'application/json', accept }) },
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
    // Not JSON (a proxy's HTML page, say): the check will refuse it.
    return text;
  }
}

/** The server's `{ message, errors }` (the contract's ErrorSchema), or null when the body is not that shape. */
function errorBodyOf(value: unknown): ApiErrorBody | null {
  if (typeof value !== 'object' || value === null) return null;
  const { message, errors } = value as Record<string, unknown>;
  if (typeof message !== 'string') return null;
  if (errors === undefined) return { message };
  if (!Array.isArray(errors)) return null;
  const issues: NonNullable<ApiErrorBody['errors']> = [];
  for (const issue of errors as unknown[]) {
    if (typeof issue !== 'object' || issue === null) return null;
    const { path, message: said } = issue as Record<string, unknown>;
    if (typeof path !== 'string' || typeof said !== 'string') return null;
    issues.push({ path, message: said });
  }
  return { message, errors: issues };
}

/** What a refusal without the server's words says: its status. */
function failedRequest(status: number): string {
  return t`Request failed (${status})`;
}

/** The error of a refused request, with the server's `{ message, errors }` when the body has that shape. */
async function errorOf(response: Response): Promise<ApiError> {
  const raw = await readJson(response).catch(() => undefined);
  const body = errorBodyOf(raw);
  return body
    ? new ApiError(response.status, body.message, body.errors, undefined, raw)
    : new ApiError(response.status, failedRequest(response.status), undefined, undefined, raw);
}

/** How long an answer asked for early waits to be taken: the page it was for shows well before. */
export const EARLY_ANSWER_MS = 10_000;

/** GET answers asked for before the page that reads them has loaded, by path: each is taken once. */
const earlyAnswers = new Map<string, Promise<Response>>();

/**
 * Asks for a GET answer now, before the page that reads it has loaded (the app's start asks for
 * the page's first data beside its code, decision 29): the first `request` of the same path
 * then takes this answer instead of asking again. A refused or failed early answer is not kept:
 * the page asks again itself. One not taken within EARLY_ANSWER_MS is dropped.
 */
export function askEarly(path: string): void {
  if (earlyAnswers.has(path)) return;
  const answer = send('GET', path, undefined, 'application/json', {});
  earlyAnswers.set(path, answer);
  const drop = () => {
    if (earlyAnswers.get(path) === answer) earlyAnswers.delete(path);
  };
  answer.catch(drop);
  setTimeout(drop, EARLY_ANSWER_MS);
}

/** The early answer of a GET of `path`, taken (so asked for again next time), or undefined. */
async function takeEarlyAnswer(method: Method, path: string): Promise<Response | undefined> {
  const answer = method === 'GET' ? earlyAnswers.get(path) : undefined;
  if (!answer) return undefined;
  earlyAnswers.delete(path);
  return answer.catch(() => undefined);
}

/**
 * One call of the API with the sign-in cookie, its answer checked before anyone sees it. Throws
 * ApiError for a refusal (its status and the server's message), for an unreachable server
 * (status 0) and, as ContractMismatchError, for an answer that fails the check.
 */
export async function request<T>(method: Method, path: string, body: unknown, check: AnswerCheck<T>, options: RequestOptions = {}): Promise<T> {
  const response = (await takeEarlyAnswer(method, path)) ?? (await send(method, path, body, 'application/json', options));
  const parsed = check.safeParse(await readJson(response));
  if (!parsed.success) throw new ContractMismatchError(response.status, `${method} ${path}`, parsed.error);
  return parsed.data;
}

/** A checked answer with its ETag (a register's revision, decision 46); null when the answer has none. */
export interface TaggedAnswer<T> {
  data: T;
  etag: string | null;
}

/** As `request`, keeping the answer's ETag: for the calls whose revision the page sends back as If-Match. */
export async function requestTagged<T>(
  method: Method,
  path: string,
  body: unknown,
  check: AnswerCheck<T>,
  options: RequestOptions = {},
): Promise<TaggedAnswer<T>> {
  const response = (await takeEarlyAnswer(method, path)) ?? (await send(method, path, body, 'application/json', options));
  const parsed = check.safeParse(await readJson(response));
  if (!parsed.success) throw new ContractMismatchError(response.status, `${method} ${path}`, parsed.error);
  return { data: parsed.data, etag: response.headers.get('etag') };
}

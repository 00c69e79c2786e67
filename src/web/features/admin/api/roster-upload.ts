import { t } from '@lingui/core/macro';
import type { z } from 'zod';
import { ErrorSchema } from '../../../../shared/schemas/common';
import { RosterFileErrorSchema, type RosterLineError } from '../../../../shared/schemas/roster';
import { ApiError, ContractMismatchError, UNREACHABLE_MESSAGE } from '../../../lib/api-client';

/** An import refused for the file's problems: nothing was changed; `lineErrors` says what to fix. */
export class RosterFileRefusal extends ApiError {
  constructor(
    message: string,
    readonly lineErrors: RosterLineError[],
  ) {
    super(400, message);
    this.name = 'RosterFileRefusal';
  }
}

/**
 * Posts a roster file as text/csv. The API client sends JSON only, so this is the one call that
 * speaks to the API itself, with the client's errors: ApiError for a refusal (RosterFileRefusal
 * when the file has problems), status 0 for an unreachable server, ContractMismatchError for an
 * answer that does not match the contract.
 */
export async function postRosterCsv<T>(path: string, text: string, schema: z.ZodType<T>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'text/csv; charset=utf-8', accept: 'application/json' },
      body: text,
    });
  } catch {
    throw new ApiError(0, UNREACHABLE_MESSAGE);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const fileErrors = RosterFileErrorSchema.safeParse(body);
    if (response.status === 400 && fileErrors.success) throw new RosterFileRefusal(fileErrors.data.message, fileErrors.data.errors);
    const error = ErrorSchema.safeParse(body);
    const status = response.status;
    throw error.success ? new ApiError(status, error.data.message) : new ApiError(status, t`Request failed (${status})`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ContractMismatchError(response.status, `POST ${path}`, parsed.error);
  return parsed.data;
}

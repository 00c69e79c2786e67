const UNIQUE_VIOLATION = '23505';

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/**
 * True when the error (or an error it wraps: Drizzle wraps the driver's) is PostgreSQL's unique
 * violation on the given constraint. pg and PGlite both report `code` and `constraint`.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const fields = current as PgErrorFields;
    if (fields.code === UNIQUE_VIOLATION && fields.constraint === constraint) return true;
    current = fields.cause;
  }
  return false;
}

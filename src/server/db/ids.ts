const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether an id from a request can name a row of a table keyed by UUID. Anything else names no
 * row: look-ups answer "not found" without asking the database, which would refuse the query.
 */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/**
 * A migration that refuses to run: its message is the database's (what to do), not the SQL.
 * Plain code that imports nothing: the child process that makes a new embedded data folder
 * (pglite-thread.ts) reports its migrations' failures with it too.
 */
export class MigrationError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

/** A migrator's failure as the portal reports it: Drizzle's own message is the failed statement; the database's reason is its cause. */
export function migrationError(err: unknown): MigrationError {
  let reason: unknown = err;
  while (reason instanceof Error && reason.cause instanceof Error) reason = reason.cause;
  return new MigrationError(`The database could not be upgraded: ${reason instanceof Error ? reason.message : String(reason)}`, {
    cause: err,
  });
}

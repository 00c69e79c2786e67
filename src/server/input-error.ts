/**
 * Input that a service refuses with a message meant for the person who typed it: the command
 * line prints it, and the API answers it with 400.
 */
export class UserInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserInputError';
  }
}

/** The value as the schema reads it, or a UserInputError that names what was wrong (`Email: …`). */
export function parseOrThrow<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new UserInputError(`${what}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

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

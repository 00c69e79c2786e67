/** The command-line options of the bench scripts. */

/** The value after `--name`, if given. */
export function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** A positive whole number after `--name`, or `fallback`. */
export function option(name: string, fallback: number): number {
  const given = argument(name);
  if (given === undefined) return fallback;
  const value = Number(given);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number`);
  return value;
}

/** A positive number (fractions allowed) after `--name`, or `fallback`. */
export function positiveNumber(name: string, fallback: number): number {
  const given = argument(name);
  if (given === undefined) return fallback;
  const value = Number(given);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number, such as 5 or 0.5`);
  return value;
}

/** The command-line options of the bench scripts. */

/** The value after `--name`, if given. */
export function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** The number after `--name` if it is positive (and whole, unless `fractions`), or `fallback`. */
function positive(name: string, fallback: number, fractions: boolean): number {
  const given = argument(name);
  if (given === undefined) return fallback;
  const value = Number(given);
  if (!(fractions ? Number.isFinite(value) : Number.isInteger(value)) || value <= 0) {
    throw new Error(fractions ? `--${name} takes a positive number, such as 5 or 0.5` : `--${name} takes a positive whole number`);
  }
  return value;
}

/** A positive whole number after `--name`, or `fallback`. */
export function option(name: string, fallback: number): number {
  return positive(name, fallback, false);
}

/** A positive number (fractions allowed) after `--name`, or `fallback`. */
export function positiveNumber(name: string, fallback: number): number {
  return positive(name, fallback, true);
}

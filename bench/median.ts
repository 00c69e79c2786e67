/**
 * The middle of a benchmark's repeated measures (the upper of the two middle ones for an even
 * count): what every script in this folder reports as its figure, so that one stray run moves none.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('no measures to take the median of');
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/**
 * The one rounding of a metric in percent for people: half up, once, to one decimal. `weft eval`'s
 * summary and table, the demo and the explorer's eval browser all round with it, so that 59.947
 * reads 59.9 everywhere (rounding to 59.95 first and then to one decimal would give 60.0).
 * Dependency-free: the explorer's page loads this file as it is.
 */
export function roundPercent(value: number): number {
  if (!Number.isFinite(value)) return value;
  // The shift by a few ulps keeps binary neighbours of a decimal half (59.95 is 59.9499…) rounding up.
  const scaled = value * 10;
  return Math.round(scaled + Math.sign(scaled) * Math.abs(scaled) * Number.EPSILON * 4) / 10;
}

/** `roundPercent` as text with one decimal: `59.9`, `60.0`, `-8.3`. */
export function formatPercent(value: number): string {
  return roundPercent(value).toFixed(1);
}

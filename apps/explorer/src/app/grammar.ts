/**
 * A count with its noun, singular for one ("1 result", "3 results"): the explorer's copy of
 * `countNoun` of `@weft/kit`, which the page cannot import (it loads only its own modules).
 */
export function countNoun(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

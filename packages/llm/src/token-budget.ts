/**
 * Tokens a text costs, estimated without a tokenizer (providers differ, and none is loaded here):
 * the larger of 4/3 tokens per word and one token per 4 characters, which errs on the high side for
 * English and for long identifiers alike.
 */
export function estimateTokens(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.ceil(Math.max((words * 4) / 3, text.length / 4));
}

/**
 * `text` cut at a word boundary so that its estimated cost stays within `maxTokens`, with `…` where
 * it was cut; unchanged when it fits.
 */
export function truncateToTokens(text: string, maxTokens: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (estimateTokens(flat) <= maxTokens) return flat;
  if (maxTokens <= 0) return '';
  const words = flat.split(' ');
  let low = 0;
  let high = words.length;
  // The longest prefix of words that fits, found by bisection (estimateTokens grows with the prefix).
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (estimateTokens(`${words.slice(0, mid).join(' ')} …`) <= maxTokens) low = mid;
    else high = mid - 1;
  }
  if (low === 0) return `${flat.slice(0, Math.max(0, maxTokens * 4 - 2))}…`;
  return `${words.slice(0, low).join(' ')} …`;
}

import { contentWords } from '@weft/grounding';
import type { KarKnowledge } from './gather-knowledge.ts';

export interface ComposeOptions {
  /**
   * The largest share of the expanded query's content words the expansion may carry (default 0.5):
   * the question's own words always weigh at least as much as what the graph added.
   */
  readonly weight?: number;
  /**
   * How the share is kept: `truncate` cuts the expansion (default), `repeat` repeats the question
   * (BM25 counts a repeated query word again) and keeps the whole expansion.
   */
  readonly balance?: 'truncate' | 'repeat';
  /** Add each neighbour's best-matching sentence after its name (default true). */
  readonly sentences?: boolean;
}

/** The sentence of `text` that shares the most words with the question (none when none does). */
export function bestSentence(text: string, queryWords: ReadonlySet<string>): string | undefined {
  let best: { sentence: string; overlap: number } | undefined;
  for (const sentence of text.split(/(?<=[.!?;])\s+/)) {
    const overlap = new Set(contentWords(sentence).filter((w) => queryWords.has(w))).size;
    if (overlap > 0 && (!best || overlap > best.overlap)) best = { sentence: sentence.trim(), overlap };
  }
  return best?.sentence;
}

/** The first `n` content words of `text` kept with the words around them (cut at a word boundary). */
function cutToContentWords(text: string, n: number): string {
  if (n <= 0) return '';
  const tokens = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let count = 0;
  for (const token of tokens) {
    const words = contentWords(token).length;
    if (count + words > n) break;
    out.push(token);
    count += words;
  }
  return out.join(' ');
}

/**
 * KAR's expansion without an LLM: for each kept neighbour, best first, its name and the sentence of
 * its document that best matches the question, weighted (`ComposeOptions.weight`) so that it cannot
 * drown the question. Returns the text added and the expanded query (the question first).
 */
export function composeExpansion(
  query: string,
  knowledge: KarKnowledge,
  options: ComposeOptions = {},
): { readonly expansion: string; readonly query: string } {
  const queryWords = new Set(contentWords(query));
  const pieces = knowledge.neighbours.map((n) => {
    const sentence = options.sentences === false ? undefined : bestSentence(n.text, queryWords);
    return sentence ? `${n.name}: ${sentence}` : n.name;
  });
  const weight = Math.min(0.95, Math.max(0, options.weight ?? 0.5));
  const questionWords = Math.max(1, contentWords(query).length);
  if (pieces.length === 0 || weight === 0) return { expansion: '', query };
  if ((options.balance ?? 'truncate') === 'repeat') {
    const expansion = pieces.join(' ; ');
    const added = contentWords(expansion).length;
    const copies = Math.max(1, Math.ceil((added * (1 - weight)) / (weight * questionWords)));
    return { expansion, query: `${Array.from({ length: copies }, () => query).join(' ')} ${expansion}` };
  }
  const budget = Math.floor((weight / (1 - weight)) * questionWords);
  const kept: string[] = [];
  let used = 0;
  for (const piece of pieces) {
    const words = contentWords(piece).length;
    if (used + words <= budget) {
      kept.push(piece);
      used += words;
      continue;
    }
    const cut = cutToContentWords(piece, budget - used);
    if (cut) kept.push(cut);
    break;
  }
  const expansion = kept.join(' ; ');
  return { expansion, query: expansion ? `${query} ${expansion}` : query };
}

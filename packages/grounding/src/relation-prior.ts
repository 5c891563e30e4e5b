import { stem } from 'porter2';
import { isFunctionWord } from './query-spans.ts';

/** One relation a question's words name: an edge type, either direction, and how much of its name they spell. */
export interface NamedRelation {
  readonly edgeType: string;
  /** Share of the edge type's name words (stemmed) found among the question's words, in (0, 1]. */
  readonly score: number;
}

const words = (text: string) =>
  (text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []) as string[];

/**
 * The edge types whose names the question's words spell ("packages that *depend* on …" →
 * `depends`, "the *hypernym* of …" → `hypernym`, "moves Charizard *learns*" → `learns`), each with
 * the share of its name's words found in the question (stemmed: "learned" spells `learns`), at or
 * above `minScore`. A name spelled only by function words ("in", "has") counts for nothing: at least
 * one content word of the name must be there. No labelled data: how a KB names its relations is the
 * only prior a new KB has about which relation a question follows.
 */
export function namedRelations(
  question: string,
  edgeTypes: readonly string[],
  options: { readonly minScore?: number } = {},
): NamedRelation[] {
  const minScore = options.minScore ?? 0.5;
  const asked = new Set(words(question).map((w) => stem(w)));
  const out: NamedRelation[] = [];
  for (const edgeType of new Set(edgeTypes)) {
    const name = words(edgeType);
    if (name.length === 0) continue;
    const found = name.filter((w) => asked.has(stem(w)));
    if (!found.some((w) => !isFunctionWord(w))) continue;
    const score = found.length / name.length;
    if (score >= minScore) out.push({ edgeType, score });
  }
  return out.sort((a, b) => b.score - a.score || a.edgeType.localeCompare(b.edgeType));
}

import { contentWords, namedRelations } from '@weft/grounding';
import type { SkbSchema } from '@weft/spec';
import { stem } from 'porter2';

/**
 * The words a KB uses for its relations, learned from its schema: each edge type's name and the
 * first clause of its descriptions ("src is a kind of dst" → kind; "dst is a part of src" → part;
 * "moves of the first type deal double damage" → double, damage). A word that describes many edge
 * types says nothing about which one a question follows and is dropped.
 */
export class RelationWords {
  /** Edge type → the stems of its distinctive description words. */
  private readonly described = new Map<string, Set<string>>();
  /** Every distinctive stem of any edge type, its name's included. */
  private readonly all = new Set<string>();
  private readonly edgeTypes: string[];

  constructor(schema: Pick<SkbSchema, 'edgeTypes'>) {
    const words = new Map<string, Set<string>>();
    for (const edge of schema.edgeTypes) {
      const set = words.get(edge.name) ?? words.set(edge.name, new Set()).get(edge.name)!;
      const clause = (edge.description ?? '').split(/[(;.:]/)[0] ?? '';
      for (const word of contentWords(`${edge.name.replace(/[_\-.:/]+/g, ' ')} ${clause}`))
        set.add(stem(word));
    }
    this.edgeTypes = [...words.keys()];
    const spread = new Map<string, number>();
    for (const set of words.values()) for (const s of set) spread.set(s, (spread.get(s) ?? 0) + 1);
    const most = Math.max(2, Math.ceil(words.size / 10));
    for (const [edgeType, set] of words) {
      const distinct = new Set([...set].filter((s) => spread.get(s)! <= most));
      this.described.set(edgeType, distinct);
      for (const s of distinct) this.all.add(s);
    }
  }

  /**
   * Edge type → how surely the question's words name it, in (0, 1]: the share of its name spelled
   * (`namedRelations`), else 0.5 when a distinctive word of its description is there.
   */
  scores(question: string): Map<string, number> {
    const out = new Map(namedRelations(question, this.edgeTypes).map((r) => [r.edgeType, r.score]));
    const asked = new Set(contentWords(question).map((w) => stem(w)));
    for (const [edgeType, set] of this.described) {
      if (out.has(edgeType)) continue;
      if ([...set].some((s) => asked.has(s))) out.set(edgeType, 0.5);
    }
    return out;
  }

  /**
   * The question's content words without the mentions' words and without relation words: what the
   * answer's own text must match ('' when nothing is left).
   */
  remainder(question: string, mentions: readonly string[]): string {
    const cut = new Set(mentions.flatMap((m) => contentWords(m)));
    return contentWords(question)
      .filter((w) => !cut.has(w) && !this.all.has(stem(w)))
      .join(' ');
  }

  /** The share of a mention's content words that are relation words: "kinds" in "kinds of bread". */
  share(mention: string): number {
    const words = contentWords(mention);
    if (words.length === 0) return 0;
    return words.filter((w) => this.all.has(stem(w))).length / words.length;
  }
}

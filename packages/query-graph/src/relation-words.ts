import { contentWords, isFunctionWord, namedRelations } from '@weft/grounding';
import type { EdgeDirection, SkbSchema } from '@weft/spec';
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
  /**
   * Edge type → relation stem → the role (`src` or `dst`) its description puts before the word:
   * "src is a kind of dst" → kind: src; "dst is a part of src" → part: dst.
   */
  private readonly before = new Map<string, Map<string, Role | null>>();

  constructor(schema: Pick<SkbSchema, 'edgeTypes'>) {
    const words = new Map<string, Set<string>>();
    for (const edge of schema.edgeTypes) {
      const set = words.get(edge.name) ?? words.set(edge.name, new Set()).get(edge.name)!;
      const clause = (edge.description ?? '').split(/[(;.:]/)[0] ?? '';
      for (const word of contentWords(`${edge.name.replace(/[_\-.:/]+/g, ' ')} ${clause}`))
        set.add(stem(word));
      const roles = this.before.get(edge.name) ?? this.before.set(edge.name, new Map()).get(edge.name)!;
      for (const [word, role] of rolesAround(clause)) {
        // Two descriptions of one edge type that order its roles differently give no cue.
        roles.set(word, roles.has(word) && roles.get(word) !== role ? null : role);
      }
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

  /**
   * The direction, seen from the mention, in which the question's word order reads an edge type —
   * when its description names the roles around a relation word the question spells: with "src is
   * a kind of dst", "a bat is a kind of what" reads bat as src (`out`) and "a kind of dog" reads dog
   * as dst (`in`). A mention before the word takes the role before it; a mention right after it
   * (function words between at most) takes the other. Undefined when the order says nothing.
   */
  direction(question: string, mention: string, edgeType: string): EdgeDirection | undefined {
    const roles = this.before.get(edgeType);
    if (!roles || roles.size === 0) return undefined;
    const tokens = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const span = tokens.length ? findSpan(tokens, mention.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) : -1;
    if (span < 0) return undefined;
    const length = (mention.match(/[\p{L}\p{N}]+/gu) ?? []).length;
    const read = new Set<Role>();
    tokens.forEach((token, at) => {
      if (at >= span && at < span + length) return;
      const role = roles.get(stem(token));
      if (!role) return;
      if (span + length <= at) read.add(role);
      else if (tokens.slice(at + 1, span).every((t) => isFunctionWord(t)))
        read.add(role === 'src' ? 'dst' : 'src');
    });
    if (read.size !== 1) return undefined;
    return read.has('src') ? 'out' : 'in';
  }

  /** The share of a mention's content words that are relation words: "kinds" in "kinds of bread". */
  share(mention: string): number {
    const words = contentWords(mention);
    if (words.length === 0) return 0;
    return words.filter((w) => this.all.has(stem(w))).length / words.length;
  }
}

type Role = 'src' | 'dst';

/**
 * The relation words of a description clause that stand between its two roles, with the role
 * before each: "src is a kind of dst" → [kind, src]. Words after or before both roles ("src and dst
 * contain words of opposite meaning") say nothing about order.
 */
function rolesAround(clause: string): [string, Role][] {
  const tokens: string[] = clause.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: [string, Role][] = [];
  let last: Role | undefined;
  tokens.forEach((token, at) => {
    if (token === 'src' || token === 'dst') {
      last = token;
      return;
    }
    if (!last || isFunctionWord(token)) return;
    const other = last === 'src' ? 'dst' : 'src';
    if (tokens.indexOf(other, at + 1) > at) out.push([stem(token), last]);
  });
  return out;
}

/** Where `words` first occur in `tokens` as a run, or -1. */
function findSpan(tokens: readonly string[], words: readonly string[]): number {
  if (words.length === 0) return -1;
  for (let at = 0; at + words.length <= tokens.length; at++) {
    if (words.every((word, k) => tokens[at + k] === word)) return at;
  }
  return -1;
}

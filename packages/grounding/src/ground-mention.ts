import { searchText } from '@weft/kit';
import type { Anchor, RetrievalContext } from '@weft/spec';

export interface GroundMentionOptions {
  /** Look among nodes of these types (what a model declared the mention to be); absent = every type. */
  readonly nodeTypes?: readonly string[];
  /** Candidates returned (default 10). */
  readonly limit?: number;
}

/**
 * Grounds one mention a model wrote (a name, or a description such as "the group that wrote the
 * attention paper"): exact names and aliases first, then fuzzy names, then node documents (BM25
 * of the relation-aware document when the index has it), each among `nodeTypes` when given. Scores
 * are in [0, 1]; `named` marks a name match. Empty when nothing of those types matches at all.
 */
export async function groundMention(
  mention: string,
  context: RetrievalContext,
  options: GroundMentionOptions = {},
): Promise<Anchor['candidates']> {
  const limit = options.limit ?? 10;
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const types = options.nodeTypes && options.nodeTypes.length > 0 ? { nodeTypes: options.nodeTypes } : {};
  const [exact = []] = await context.graph.doLookup([mention], { fuzzy: false, limit, ...types, ...signal });
  if (exact.length > 0) return exact.map((m) => ({ id: m.id, type: m.type, score: m.score, named: true }));
  const [fuzzy = []] = await context.graph.doLookup([mention], { fuzzy: true, limit, ...types, ...signal });
  // A close spelling of a name counts before a description match; a loose one does not.
  const close = fuzzy.filter((m) => m.score >= 0.6);
  if (close.length > 0) return close.map((m) => ({ id: m.id, type: m.type, score: m.score, named: true }));
  const field =
    context.text.specificationVersion === 'v2' && context.text.fields.some((f) => f.name === 'combined');
  const [hits = []] = await searchText(context.text, [mention], {
    limit,
    ...(field ? { field: 'combined' } : {}),
    ...(options.nodeTypes && options.nodeTypes.length > 0
      ? { filter: { nodeTypes: options.nodeTypes } }
      : {}),
    ...signal,
  });
  const top = hits[0]?.score ?? 0;
  if (top <= 0) return [];
  const missingType = hits.filter((h) => h.type === undefined).map((h) => h.id);
  const nodes = missingType.length > 0 ? await context.graph.doGetNodes(missingType) : [];
  const typeOf = new Map(nodes.flatMap((n) => (n ? [[n.id, n.type] as const] : [])));
  // Relative to the best match and halved: a description is weaker evidence than a name.
  return hits.map((h) => ({
    id: h.id,
    type: h.type ?? typeOf.get(h.id) ?? '',
    score: (0.5 * h.score) / top,
    named: false,
  }));
}

import { relationLabel } from '@weft/kit';
import { truncateToTokens, untrustedText } from '@weft/llm';
import type { Candidate, RetrievalContext } from '@weft/spec';

/**
 * The validation context of HybGRAG's critic: each top result with the path that found it, from
 * the topic entity, in names (`[1] "Flare Blitz" (move) via "Charizard" —learns→ "Flare Blitz": "…"`),
 * or `via text search`. Documents are cut to `maxDocumentTokens`; one batched node look-up.
 */
export async function reasoningPaths(
  candidates: readonly Candidate[],
  context: RetrievalContext,
  options: { readonly topK: number; readonly maxDocumentTokens: number },
): Promise<string[]> {
  const top = candidates.slice(0, options.topK);
  const ids = [
    ...new Set(top.flatMap((c) => [c.id, ...c.trajectories.flatMap((t) => t.hops.map((h) => h.node))])),
  ];
  const nodes = ids.length
    ? await context.graph.doGetNodes(
        ids,
        context.abortSignal ? { abortSignal: context.abortSignal } : undefined,
      )
    : [];
  const byId = new Map(ids.map((id, i) => [id, nodes[i]]));
  const name = (id: string) => untrustedText(byId.get(id)?.name ?? id);
  return top.map((candidate, i) => {
    const node = byId.get(candidate.id);
    const structural = candidate.trajectories.find((t) => t.hops.length > 1);
    const path = structural
      ? structural.hops
          .map((hop, h) =>
            h === 0
              ? name(hop.node)
              : `${relationLabel(hop.edgeType ?? 'related to', hop.direction ?? 'out')} ${name(hop.node)}`,
          )
          .join(' ')
      : 'text search';
    const text = node?.text
      ? `: ${untrustedText(truncateToTokens(node.text, options.maxDocumentTokens))}`
      : '';
    return `[${i + 1}] ${name(candidate.id)} (${candidate.type ?? node?.type ?? '?'}) via ${path}${text}`;
  });
}

import { truncateToTokens, untrustedText } from '@weft/llm';
import type { Candidate, RetrievalContext } from '@weft/spec';

/**
 * Each candidate as a prompt shows it: its name and document, cut to `maxTokens` (estimated), as one
 * JSON string literal (untrusted text). One batched node look-up; a node the store lacks shows its id.
 */
export async function candidateTexts(
  candidates: readonly Candidate[],
  context: RetrievalContext,
  maxTokens: number,
): Promise<string[]> {
  const nodes = candidates.length
    ? await context.graph.doGetNodes(
        candidates.map((c) => c.id),
        context.abortSignal ? { abortSignal: context.abortSignal } : {},
      )
    : [];
  return candidates.map((candidate, i) => {
    const node = nodes[i];
    const text = node ? `${node.name}${node.text ? `: ${node.text}` : ''}` : candidate.id;
    return untrustedText(truncateToTokens(text, maxTokens));
  });
}

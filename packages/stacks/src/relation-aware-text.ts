import { textFields } from '@weft/kit';
import type { RetrievalContext } from '@weft/spec';

/**
 * The text field the method stacks' traversers rank by: `combined` — the node's document with its
 * neighbours' names by relation, what `bm25-rel` searches — where the store has it, else the document.
 * MoR's per-hop top-k and fill, FocusedRetriever's in-set scores and fill, HybGRAG's text module,
 * MixRAG's entity expert and the walk's text seeds and rescoring then see what a node is linked to.
 *
 * Hit@1 in questions over the 15 train/val splits of three untrained KBs (593 questions; bm25-rel
 * 215), document → combined: mor-offline 206 → 220, focused-offline 206 → 225, mixrag-offline 207 →
 * 224, ppr 204 → 229, hybgrag-offline 217 → 220 (208 with its ego-graph members on `combined` too:
 * every member's neighbours name the anchor). Debian and WordNet gain (WordNet hybrid train +5 to +15
 * per stack), Pokémon loses 1–5 questions per stack, as `bm25-rel` does against `bm25` there. KAR's
 * BM25 over its expanded question stays on the document: 214 → 213 on `combined`.
 */
export function relationAwareText(context: Pick<RetrievalContext, 'text'>): { readonly field?: string } {
  return textFields(context.text).includes('combined') ? { field: 'combined' } : {};
}

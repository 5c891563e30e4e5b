import type { Plan, RetrievalContext } from '@weft/spec';
import { searchText } from '../search/search.ts';

/** BM25 of the question, against the stage's candidates. */
export interface ConfirmationScores {
  /** The best of all candidates, text matches included. */
  readonly best: number;
  /** The best of the candidates the plan's structure reached. */
  readonly reached: number;
}

/**
 * How far the question's own words confirm a plan's structure, in [0, 1]: the better of two text
 * matches of the whole question, each relative to the best candidate's, squared — the best answer
 * the structure reached ("Nikon zoom lens": the Nikon lens the brand leads to), or the node the best
 * path starts from ("the noun 'straightness' (freedom from crooks or curves)": its answers share no
 * words with the question, its anchor does). 0 when neither matches.
 *
 * An offline planner's confidence says how well a name matched and how well the relation's words
 * fit, not whether the question is about that node: a common word linked as a name ("lookup" → the
 * source package `lookup` in "DNS lookup clients built from the bind9 source package") gives a sure
 * plan whose anchor and answers the rest of the question does not describe. Offline stacks weigh
 * their structure by plan confidence × this. At most one text search, of one document.
 */
export async function structureConfirmation(
  context: RetrievalContext,
  query: string,
  plan: Plan,
  scores: ConfirmationScores,
): Promise<number> {
  const reached = scores.best > 0 ? Math.min(1, scores.reached / scores.best) : 0;
  if (reached >= 1) return 1;
  const start = plan.paths[0]?.anchor;
  const anchor = start === undefined ? undefined : plan.anchors[start]?.candidates[0]?.id;
  let own = 0;
  if (anchor !== undefined && query.trim().length > 0) {
    const [hits] = await searchText(context.text, [query], {
      limit: 1,
      filter: { ids: [anchor] },
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    own = hits?.[0]?.score ?? 0;
  }
  const described = own > 0 ? own / Math.max(own, scores.best) : 0;
  return Math.max(reached, described) ** 2;
}

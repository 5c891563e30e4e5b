import type { Plan } from '@weft/spec';

/** How many letters and digits a text holds: what a name spells, whatever its spacing and punctuation. */
const spelled = (text: string) => text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;

/** The share, in [0, 1], of the plan's query that a mention spells (letters and digits, whatever its words). */
export function queryShare(plan: Pick<Plan, 'query'>): (mention: string) => number {
  const whole = spelled(plan.query);
  return (mention) => (whole === 0 ? 0 : Math.min(1, spelled(mention) / whole));
}

/**
 * The nodes a query that is nothing but a name asks for ("ecasound", "pikachu", "cornea"): every
 * node that a mention spelling at least `minShare` of the query's letters and digits names (`named`
 * not false), best first. Empty for a question that says more than a name ("Nikon zoom lens"),
 * where the named node is what the question builds on, not what it asks for. Stacks that keep a
 * plan's anchors out of their answers let these in, first. `minShare` 0.9 lets a question mark or a
 * plural's "s" through. Name lookups (100 target-type names a KB, untrained), Hit@1 WordNet /
 * Pokémon / Debian: `mor-offline` 12 / 7 / 44 → 95 / 95 / 92, `focused-offline` 6 / 9 / 43 → 95 /
 * 100 / 98 (bm25 65 / 86 / 89); every judged question of the three KBs ranks as before.
 */
export function queryNames(plan: Plan, minShare = 0.9): string[] {
  const shareOf = queryShare(plan);
  const out: string[] = [];
  for (const anchor of plan.anchors) {
    if (shareOf(anchor.mention) < minShare) continue;
    for (const node of anchor.candidates)
      if (node.named !== false && !out.includes(node.id)) out.push(node.id);
  }
  return out;
}

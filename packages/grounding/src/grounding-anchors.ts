import type { Anchor } from '@weft/spec';
import type { Grounding } from './ground-question.ts';

/**
 * A grounding as a plan's anchors: a mention's probability is the anchor's confidence, and each
 * candidate's score its probability relative to the mention's best, so confidence × score is the
 * candidate's own probability.
 */
export function groundingAnchors(grounding: Pick<Grounding, 'mentions'>): Anchor[] {
  return grounding.mentions.map((mention) => ({
    mention: mention.text,
    confidence: mention.probability,
    candidates: mention.candidates.map((c) => ({
      id: c.id,
      type: c.type,
      score: mention.probability > 0 ? c.probability / mention.probability : 0,
      ...(c.features.name > 0 ? { named: true } : {}),
    })),
  }));
}

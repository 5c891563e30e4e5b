import type { Anchor } from '@weft/spec';
import type { GroundedMention, Grounding } from './ground-question.ts';

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
      named: c.features.nameWhole > 0,
    })),
  }));
}

const squash = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * The grounding's mention for words a model wrote: the same words (the reading that spells a name
 * first, since a model writing a name means that node), else with `overlapping`, the longest
 * mention inside or around them.
 */
export function mentionFor(
  mentions: readonly GroundedMention[],
  words: string,
  options: { readonly overlapping?: boolean } = {},
): GroundedMention | undefined {
  const text = squash(words);
  const same = mentions.filter((m) => squash(m.text) === text);
  const spelled = same.find((m) => m.candidates[0]?.features.nameWhole);
  if (spelled ?? same[0]) return spelled ?? same[0];
  if (!options.overlapping) return undefined;
  const around = mentions.filter((m) => text.includes(squash(m.text)) || squash(m.text).includes(text));
  return around.sort((a, b) => b.text.length - a.text.length)[0];
}

/**
 * The anchors of a grounding's described reading only: mentions whose best candidate the question
 * describes rather than names, at or above `minProbability`, leaving out nodes in `exclude` (those a
 * name linker already found) — what a planner that links names its own way adds from this package.
 */
export function describedAnchors(
  grounding: Pick<Grounding, 'mentions'>,
  options: { readonly minProbability: number; readonly exclude?: ReadonlySet<string> },
): Anchor[] {
  const described = grounding.mentions.filter(
    (m) =>
      m.probability >= options.minProbability &&
      m.candidates[0]!.features.nameWhole === 0 &&
      !options.exclude?.has(m.candidates[0]!.id),
  );
  return groundingAnchors({ mentions: described });
}

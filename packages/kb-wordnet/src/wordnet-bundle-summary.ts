import type { BundleSummary } from '@weft/skb';

/** What `buildWordnetBundle` wrote. */
export interface WordnetBundleSummary extends BundleSummary {
  /** Synsets by WordNet part of speech; `s` = adjective satellite. */
  readonly nodesByPos: Record<string, number>;
  /** Lexical pointers between two words of one synset, which would be self-loops as synset edges. */
  readonly selfLoopsDropped: number;
}

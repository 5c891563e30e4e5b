import type { SkbNode } from '@weft/spec';
import type { WordnetSynset } from './parse-data-line.ts';

const lemmaText = (lemma: string) => lemma.replaceAll('_', ' ');

/**
 * The node of a synset: its first lemma names it, the other lemmas are aliases, the gloss is its text
 * and its lexicographer file its type. `props.pos` keeps `s` for satellites, whose ids say `a`.
 */
export function synsetNode(synset: WordnetSynset): SkbNode {
  const [name, ...others] = synset.lemmas.map(lemmaText) as [string, ...string[]];
  return {
    id: synset.id,
    type: synset.lexname,
    name,
    aliases: others,
    text: synset.gloss,
    props: { pos: synset.type, lexname: synset.lexname },
  };
}

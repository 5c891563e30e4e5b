import { toyContext } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { linkMentions, mentionAnchors } from './link-mentions.ts';
import { contentWords, querySpans, singularForms } from '@weft/grounding';

describe('querySpans', () => {
  it('offers quoted phrases and word runs that neither start nor end with a function word, longest first', () => {
    const spans = querySpans('lenses for the "Nikon D850", please');
    expect(spans[0]).toMatchObject({ text: 'Nikon D850', quoted: true, words: 2 });
    const texts = spans.map((s) => s.text);
    expect(texts).toContain('lenses');
    expect(texts).not.toContain('lenses for');
    expect(texts).not.toContain('the Nikon D850');
    // Sentence punctuation ends a span.
    expect(texts).not.toContain('D850 please');
  });

  it('guesses singulars of a plural last word, and keeps content words only', () => {
    expect(singularForms('trail cameras')).toEqual(['trail camera']);
    expect(singularForms('cities')).toContain('city');
    expect(singularForms('glass')).toEqual([]);
    expect(contentWords('Which lens is made by Nikon?')).toEqual(['lens', 'made', 'nikon']);
  });
});

describe('linkMentions', () => {
  const context = toyContext();

  it('links names and aliases to nodes, a rare name more specifically than a common word', async () => {
    const mentions = await linkMentions('a telephoto lens by Nikon Corporation for the D850', context);
    const byText = new Map(mentions.map((m) => [m.text, m]));
    expect(byText.get('Nikon Corporation')?.nodes.map((n) => n.id)).toEqual(['b:nikon']);
    expect(byText.get('Nikon')?.nodes[0]?.id).toBe('b:nikon');
    // A two-word name is more specific than one of its words.
    expect(byText.get('Nikon Corporation')!.specificity).toBeGreaterThan(byText.get('Nikon')!.specificity);
    for (const m of mentions) expect(m.specificity).toBeGreaterThanOrEqual(0);
    for (const m of mentions) expect(m.specificity).toBeLessThanOrEqual(1);
  });

  it('finds nothing in a query that names no node, and makes anchors of what it finds', async () => {
    expect(await linkMentions('something rugged and weather sealed', context)).toEqual([]);
    expect(await linkMentions('', context)).toEqual([]);
    const anchors = mentionAnchors(await linkMentions('Leica cameras', context));
    const leica = anchors.find((a) => a.mention === 'Leica');
    expect(leica?.candidates[0]).toMatchObject({ id: 'b:leica', type: 'brand' });
    expect(leica?.confidence).toBeGreaterThan(0);
  });
});

import { toyContext } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { groundingAnchors } from './grounding-anchors.ts';
import { groundMention } from './ground-mention.ts';
import { groundQuestion, questionPhrases } from './ground-question.ts';
import { nounPhrases } from './noun-phrases.ts';

const context = toyContext();

describe('nounPhrases', () => {
  it('offers noun phrases, never verb phrases, with the question’s offsets', () => {
    const question = 'Which type of headache keeps coming back and affects women?';
    const phrases = nounPhrases(question);
    expect(phrases.map((p) => p.text)).toEqual(['type', 'headache', 'women']);
    for (const p of phrases) expect(question.slice(p.start, p.end)).toBe(p.text);
  });

  it('keeps hyphenated words whole', () => {
    expect(nounPhrases('a full-frame mirrorless body').map((p) => p.text)).toEqual([
      'full-frame mirrorless body',
    ]);
  });
});

describe('questionPhrases', () => {
  it('describes a phrase by the relative clause after it, and notices a head noun that names a node type', () => {
    const [maker] = questionPhrases('lenses of the brand that makes rangefinder cameras', [
      'brand',
      'product',
    ]).filter((p) => p.text === 'brand');
    expect(maker?.description).toBe('brand that makes rangefinder cameras');
    expect(maker?.headType).toBe('brand');
  });
});

describe('groundQuestion', () => {
  it('links a spelled name, with a calibrated probability and a name-match feature', async () => {
    const { mentions } = await groundQuestion('a telephoto lens made by Nikon Corporation', context);
    const nikon = mentions.find((m) => m.candidates[0]?.id === 'b:nikon');
    expect(nikon).toBeDefined();
    expect(nikon!.candidates[0]!.features.nameWhole).toBeGreaterThan(0);
    for (const m of mentions) {
      expect(m.probability).toBeGreaterThan(0);
      expect(m.probability).toBeLessThanOrEqual(1);
    }
  });

  it('links a node the question describes without naming it', async () => {
    const { mentions } = await groundQuestion('lenses by the brand that makes rangefinder cameras', context, {
      minProbability: 0,
    });
    const brand = mentions.find((m) => m.text === 'brand');
    expect(brand?.candidates[0]?.id).toBe('b:leica');
    expect(brand?.candidates[0]?.features.nameWhole).toBe(0);
  });

  it('gives a question that builds on nothing no mentions, and an empty question nothing', async () => {
    expect((await groundQuestion('', context)).mentions).toEqual([]);
    const { mentions } = await groundQuestion('how long should sourdough bread rise overnight', context);
    expect(mentions).toEqual([]);
  });

  it('makes plan anchors whose confidence × score is each candidate’s probability', async () => {
    const grounding = await groundQuestion('Leica cameras', context, { minProbability: 0 });
    const anchors = groundingAnchors(grounding);
    grounding.mentions.forEach((m, i) => {
      m.candidates.forEach((c, j) => {
        expect(anchors[i]!.confidence * anchors[i]!.candidates[j]!.score).toBeCloseTo(c.probability);
      });
    });
    expect(anchors.some((a) => a.candidates.some((c) => c.id === 'b:leica' && c.named))).toBe(true);
  });
});

describe('groundMention', () => {
  it('looks a mention up among nodes of the declared type: names first, then documents', async () => {
    expect((await groundMention('Leitz', context, { nodeTypes: ['brand'] }))[0]).toMatchObject({
      id: 'b:leica',
      named: true,
    });
    const described = await groundMention('German maker of rangefinder cameras', context, {
      nodeTypes: ['brand'],
    });
    expect(described[0]?.id).toBe('b:leica');
    expect(described[0]?.named).toBe(false);
    expect(described.every((c) => c.type === 'brand')).toBe(true);
    expect(await groundMention('Leitz', context, { nodeTypes: ['category'] })).toEqual([]);
  });
});

import { runExpanderSuite } from '@weft/conformance';
import { MockLanguageModelV4, textResult, toyContext } from '@weft/core/test';
import { estimateTokens } from '@weft/llm';
import type { RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { KarExpander } from './kar-expander.ts';
import { LlmKarExpander, type LlmKarExpanderOptions } from './llm-kar-expander.ts';

const query = 'a telephoto zoom that fits the "Nikon D850"';
const answering = (...texts: string[]) =>
  new MockLanguageModelV4({ doGenerate: texts.map((text) => textResult(text, { input: 500, output: 60 })) });
const promptOf = (model: MockLanguageModelV4) =>
  (model.doGenerateCalls[0]?.prompt ?? [])
    .flatMap((m) =>
      typeof m.content === 'string'
        ? [m.content]
        : m.content.map((part) => (part.type === 'text' ? part.text : '')),
    )
    .join('\n');

async function expand(
  model: MockLanguageModelV4 | undefined,
  q = query,
  options: LlmKarExpanderOptions = {},
) {
  const warnings: string[] = [];
  const context: RetrievalContext = {
    ...toyContext(),
    ...(model ? { languageModel: model } : {}),
    warn: (m) => warnings.push(m),
  };
  const expansion = await new LlmKarExpander(options).doExpand({ query: q, context });
  const offline = await new KarExpander(options).doExpand({ query: q, context: toyContext() });
  return { expansion, warnings, offline };
}

const three = JSON.stringify({
  expansions: [
    'The AF-S Nikkor 200-500mm is a telephoto zoom lens with an F-mount for birds and wildlife.',
    'It is compatible with the Nikon D850 and the Nikon D3500.',
    'Nikon makes F-mount lenses for its DSLRs.',
  ],
});

describe('LlmKarExpander on every failure mode', () => {
  it('shows the model the facts above factsMinRelevance, and falls back to the offline knowledge above minRelevance', async () => {
    // A floor no neighbour reaches: the offline expansion has no facts; the model is shown them anyway.
    const options: LlmKarExpanderOptions = { minRelevance: 100, factsMinRelevance: 0 };
    const model = answering(three);
    const { expansion, offline } = await expand(model, query, options);
    expect(offline).toMatchObject({ query, expansion: '', triples: [] });
    expect(promptOf(model)).toContain('—compatible with→ "Nikon D850"');
    expect(expansion.triples.length).toBeGreaterThan(0);
    // The call fails: the offline expansion, from the knowledge above minRelevance (none).
    const failed = await expand(answering('not json at all'), query, options);
    expect(failed.expansion).toEqual(failed.offline);
    // Without factsMinRelevance the model sees what the offline expansion sees: no facts.
    const floored = answering(three);
    await expand(floored, query, { minRelevance: 100 });
    expect(promptOf(floored)).toContain('no facts about the entities of this question');
  });

  it('appends the n expansions the model writes in one call, from the document triples', async () => {
    const model = answering(three);
    const { expansion, warnings } = await expand(model);
    expect(warnings).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);
    const added = JSON.parse(three).expansions.join(' ');
    expect(expansion).toMatchObject({ query: `${query} ${added}`, expansion: added });
    expect(expansion.triples[0]).toEqual({
      subject: 'AF-S Nikkor 200-500mm',
      relation: 'compatible with',
      object: 'Nikon D850',
    });
    // Head and tail documents go into the prompt, as JSON string literals; n is asked for.
    expect(promptOf(model)).toContain(
      '- "AF-S Nikkor 200-500mm" ("Telephoto zoom lens with F-mount for birds and wildlife.") —compatible with→ "Nikon D850"',
    );
    expect(promptOf(model)).toContain('Write 3 expansions');
  });

  it('cuts the triples to the token budget', async () => {
    const triples = (model: MockLanguageModelV4) =>
      promptOf(model)
        .split('\n')
        .filter((l) => l.startsWith('- '));
    const wide = answering(three);
    await expand(wide, query, { minRelevance: 0 });
    const all = triples(wide);
    expect(all.length).toBeGreaterThan(1);
    const narrow = answering(three);
    await expand(narrow, query, { minRelevance: 0, maxTripleTokens: estimateTokens(all[0]!) });
    expect(triples(narrow)).toEqual([all[0]]);
  });

  it('invalid output: the offline expansion, and the trace says why', async () => {
    const { expansion, warnings, offline } = await expand(answering('{"expansions": ["The AF-S Nikkor'));
    expect(expansion).toEqual(offline);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^expand query: .*; the offline expansion is used$/);
  });

  it('an empty expansion: the offline expansion, and the trace says why', async () => {
    for (const empty of ['{"expansions": []}', '{"expansions": ["", "   "]}']) {
      const { expansion, warnings, offline } = await expand(answering(empty));
      expect(expansion).toEqual(offline);
      expect(warnings).toEqual(['expand query: the model wrote no expansion; the offline expansion is used']);
    }
  });

  it('a question naming no known entity: the model expands from the question alone', async () => {
    const model = answering('{"expansions": ["A quiet camera for street photography in the evening."]}');
    const { expansion } = await expand(model, 'something quiet for the evening');
    expect(promptOf(model)).toContain('The knowledge base has no facts about the entities of this question');
    expect(expansion.triples).toEqual([]);
    expect(expansion.expansion).toBe('A quiet camera for street photography in the evening.');
  });

  it('repairs a bare list; drops repeats; keeps at most n', async () => {
    const { expansion } = await expand(
      answering('["a lens", "A lens", "a body", "a flash", "a bag"]'),
      query,
      { n: 3 },
    );
    expect(expansion.expansion).toBe('a lens a body a flash');
  });

  it('no model: the offline expansion, with a warning', async () => {
    const { expansion, warnings, offline } = await expand(undefined);
    expect(expansion).toEqual(offline);
    expect(warnings).toEqual(['no language model is configured: the offline expansion is used']);
  });
});

runExpanderSuite({
  name: 'LlmKarExpander (a mock model)',
  prepareContext: (context) => ({
    ...context,
    languageModel: new MockLanguageModelV4({
      doGenerate: textResult('{"expansions": ["cameras and lenses"]}'),
    }),
  }),
  create: async () => new LlmKarExpander(),
});

runExpanderSuite({ name: 'LlmKarExpander (no model: offline)', create: async () => new LlmKarExpander() });

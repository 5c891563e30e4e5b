import { relationLabel } from '@weft/kit';
import { estimateTokens, truncateToTokens, untrustedText, untrustedTextNotice } from '@weft/llm';
import { z } from 'zod';
import type { KarKnowledge } from './gather-knowledge.ts';

/** What the model answers: its expansions of the question. */
export const karExpansionsSchema = z.object({ expansions: z.array(z.string()) });

export type KarExpansions = z.infer<typeof karExpansionsSchema>;

export const karInstructions = `You expand search questions for a knowledge base. Given a question and facts from the knowledge base about the entities it names (document triples: a head entity with its description, a relation, a tail entity with its description), write short passages that answer or rephrase the question using the facts: name the entities that fit, and use the words their descriptions use. Answer with one JSON object and nothing else: {"expansions": ["…", "…"]}.
${untrustedTextNotice}`;

/** Reshapes answers models give instead of the object: a bare list, one string, another key. */
export function repairExpansions(value: unknown): { value: unknown; repairs: string[] } {
  if (Array.isArray(value))
    return { value: { expansions: value }, repairs: ['a bare list was taken as the expansions'] };
  if (typeof value === 'string')
    return { value: { expansions: [value] }, repairs: ['a string was taken as one expansion'] };
  if (value && typeof value === 'object' && !('expansions' in value)) {
    const list = Object.values(value).find((v) => Array.isArray(v) && v.every((x) => typeof x === 'string'));
    if (list) return { value: { expansions: list }, repairs: ['the expansions were under another key'] };
  }
  return { value, repairs: [] };
}

/**
 * The document triples of the kept neighbours, best first, each document cut to `maxDocumentTokens`,
 * as many as fit in `maxTokens` (KAR's truncation to a token budget).
 */
export function documentTriples(
  knowledge: KarKnowledge,
  options: { readonly maxTokens: number; readonly maxDocumentTokens: number },
): string[] {
  const documents = new Map<string, { name: string; text: string }>();
  for (const e of knowledge.entities) documents.set(e.id, { name: e.name, text: e.text });
  for (const n of knowledge.neighbours) documents.set(n.id, { name: n.name, text: n.text });
  const show = (id: string, fallback: string) => {
    const doc = documents.get(id);
    const text = doc?.text ? truncateToTokens(doc.text, options.maxDocumentTokens) : '';
    return `${untrustedText(doc?.name ?? fallback)}${text ? ` (${untrustedText(text)})` : ''}`;
  };
  const lines: string[] = [];
  let used = 0;
  knowledge.neighbours.forEach((n, i) => {
    const triple = knowledge.triples[i]!;
    const [head, tail] = n.direction === 'out' ? [n.from, n.id] : [n.id, n.from];
    const line = `- ${show(head, triple.subject)} ${relationLabel(triple.relation, 'out')} ${show(tail, triple.object)}`;
    const cost = estimateTokens(line);
    if (used + cost > options.maxTokens) return;
    lines.push(line);
    used += cost;
  });
  return lines;
}

/** The user prompt: the question, the triples, how many expansions. */
export function karPrompt(options: {
  readonly query: string;
  readonly triples: readonly string[];
  readonly n: number;
}): string {
  const facts =
    options.triples.length > 0
      ? `Facts from the knowledge base:\n${options.triples.join('\n')}`
      : 'The knowledge base has no facts about the entities of this question: rely on the question alone.';
  return `Question: ${untrustedText(options.query)}\n${facts}\nWrite ${options.n} expansions, each one or two sentences.`;
}

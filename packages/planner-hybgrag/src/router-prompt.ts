import { untrustedText, untrustedTextNotice } from '@weft/llm';
import type { Plan, SkbSchema } from '@weft/spec';
import { z } from 'zod';
import type { RouterAction, RouterExample } from './router-examples.ts';
import type { RouteRound } from './route-state.ts';

const direction = z.enum(['in', 'out']);

/** What the model answers: a module, and for the graph modules the topic entities and relations. */
export const routerOutputSchema = z.object({
  module: z.enum(['text', 'hybrid', 'graph']),
  entities: z
    .array(
      z.object({
        mention: z.string().min(1),
        relations: z
          .array(
            z.object({
              edge: z.string().min(1),
              direction,
              next: z.object({ edge: z.string().min(1), direction }).optional(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
  reason: z.string().optional(),
});

export type RouterOutput = z.infer<typeof routerOutputSchema>;

export const routerInstructions = `You route questions over a knowledge graph whose nodes have text descriptions. Pick a retrieval module:
- "text": search the descriptions of the answer types with the question (when no entity the question names narrows the answers down);
- "hybrid": take the neighbourhood (ego-graph) of each topic entity the question names along the relations that lead from it to the answers (one relation, or two steps with "next"), intersect the neighbourhoods when there are several entities, and rank what remains by its description;
- "graph": like hybrid, for answers without descriptions.
Topic entities are given by the words of the question that name them (use the linked mentions shown). Relations must be edge types of the schema; "out" follows an edge as stored (from → to), "in" backwards.
Answer with one JSON object and nothing else: {"module": "…", "entities": [{"mention": "…", "relations": [{"edge": "…", "direction": "out" | "in", "next": {"edge": "…", "direction": "…"}}]}], "reason": "<one sentence>"}.
${untrustedTextNotice}`;

/** Reshapes answers models give: the action wrapped in another key, a module name alone. */
export function repairRouterOutput(value: unknown): { value: unknown; repairs: string[] } {
  if (typeof value === 'string' && /^(text|hybrid|graph)$/i.test(value.trim()))
    return {
      value: { module: value.trim().toLowerCase() },
      repairs: ['a module name alone was taken as the action'],
    };
  if (value && typeof value === 'object' && !('module' in value)) {
    const inner = Object.values(value).find((v) => v && typeof v === 'object' && 'module' in v);
    if (inner) return { value: inner, repairs: ['the action was unwrapped'] };
  }
  if (value && typeof value === 'object' && typeof (value as { module?: unknown }).module === 'string') {
    const module = (value as { module: string }).module.toLowerCase();
    if (module !== (value as { module: string }).module)
      return { value: { ...value, module }, repairs: ['the module name was lower-cased'] };
  }
  return { value, repairs: [] };
}

function schemaLines(schema: SkbSchema): string[] {
  const targets = schema.targetTypes ?? schema.nodeTypes.map((t) => t.name);
  return [
    `Node types: ${schema.nodeTypes.map((t) => t.name).join(', ')}. Answers are of: ${targets.join(', ')}.`,
    'Edge types (from → to):',
    ...schema.edgeTypes.map(
      (e) => `- ${e.name} (${e.from} → ${e.to})${e.description ? `: ${e.description.slice(0, 100)}` : ''}`,
    ),
  ];
}

const json = (action: RouterAction) => JSON.stringify(action);

/** The user prompt: schema, examples, the question and its linked mentions, earlier rounds. */
export function routerPrompt(options: {
  readonly schema: SkbSchema;
  readonly query: string;
  readonly base: Plan;
  readonly examples: readonly RouterExample[];
  readonly history: readonly RouteRound[];
}): string {
  const mentions = options.base.anchors
    .filter((a) => a.candidates[0])
    .sort((a, b) => b.confidence - a.confidence)
    .slice(0, 8)
    .map((a) => {
      const nodes = a.candidates
        .slice(0, 3)
        .map((c) => `${c.id} (${c.type})`)
        .join(', ');
      return `- ${untrustedText(a.mention)} (sure ${a.confidence.toFixed(2)}): ${nodes}`;
    });
  const lines = [...schemaLines(options.schema)];
  if (options.examples.length > 0) {
    lines.push('Examples:');
    for (const example of options.examples)
      lines.push(`Question: ${untrustedText(example.query)}`, `Action: ${json(example.action)}`);
  }
  lines.push(`Question: ${untrustedText(options.query)}`);
  lines.push(mentions.length > 0 ? `Linked mentions:\n${mentions.join('\n')}` : 'Linked mentions: none');
  if (options.history.length > 0) {
    lines.push('Earlier rounds (choose a different action that fixes what the critic found):');
    for (const round of options.history)
      lines.push(
        `- round ${round.round}: ${round.action}; critic: ${round.feedback.length > 0 ? round.feedback.map((f) => `${f.kind}: ${f.message}`).join(' | ') : 'no objection'}`,
      );
  }
  lines.push('Action:');
  return lines.join('\n');
}

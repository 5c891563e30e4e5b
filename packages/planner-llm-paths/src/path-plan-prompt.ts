import { describeSchema, untrustedText, untrustedTextNotice } from '@weft/llm';
import type { CriticFeedback, Plan, SkbSchema } from '@weft/spec';
import type { PathPlanExample } from './path-planner-artifact.ts';

const format = `Answer with one JSON object and nothing else:
{"targetTypes": ["<node type of the answers>"],
 "anchors": [{"mention": "<words of the question that name one node>", "type": "<its node type>"}],
 "paths": [{"anchor": "<a mention>", "hops": [{"edge": "<edge type>", "direction": "out" | "in", "nodeType": "<node type reached>", "restriction": "<what the reached node's text should say, or empty>"}]}],
 "restriction": "<what the answer's own text should say>"}
A path leads from an anchor to a node of a target type, one hop per edge. "out" follows an edge the
way the schema writes it (from -> to), "in" follows it backwards. A path without an anchor starts
from text matches: give "startType" instead of "anchor". Use only the schema's type names; best path
first; at most 3 paths.`;

/** The system instructions of the path planner: the task, the answer format, the untrusted-text rule. */
export const pathPlanInstructions = `You plan retrieval over a typed knowledge graph whose nodes carry text (mixture of structural and textual retrieval). Given a question, write the planning graph: which node types are asked for, which nodes the question names, and the typed reasoning paths from those nodes to the answers, with what the text should say at each hop.
${format}
${untrustedTextNotice}`;

/**
 * The question as the model sees it: the schema, the nodes the name index links to its words (as
 * hints; node names are untrusted text), worked examples from train queries, critic feedback of
 * earlier rounds, and the question itself.
 */
export function pathPlanPrompt(options: {
  readonly schema: SkbSchema;
  readonly query: string;
  readonly offline: Plan;
  readonly examples: readonly PathPlanExample[];
  readonly feedback: readonly CriticFeedback[];
}): string {
  const parts = [describeSchema(options.schema)];
  const linked = options.offline.anchors
    .filter((a) => a.candidates.length > 0)
    .slice(0, 6)
    .map(
      (a) =>
        `- ${untrustedText(a.mention)}: ${a.candidates
          .slice(0, 3)
          .map((c) => `${c.type}`)
          .join(', ')}`,
    );
  if (linked.length > 0)
    parts.push(`Words of the question that name nodes (and those nodes' types):\n${linked.join('\n')}`);
  if (options.examples.length > 0) {
    parts.push(
      `Examples:\n${options.examples
        .map((e) => `Question: ${untrustedText(e.query)}\nPlan: ${JSON.stringify(e.plan)}`)
        .join('\n\n')}`,
    );
  }
  if (options.feedback.length > 0) {
    parts.push(
      `An earlier plan for this question was judged wrong:\n${options.feedback.map((f) => `- ${f.kind}: ${f.message}`).join('\n')}`,
    );
  }
  parts.push(`Question: ${untrustedText(options.query)}\nPlan:`);
  return parts.join('\n\n');
}

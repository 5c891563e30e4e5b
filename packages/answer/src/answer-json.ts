import type { Evidence } from './gather-evidence.ts';
import type { GroundedAnswer } from './stream-grounded-answer.ts';

/** A finished answer as JSON: what `weft ask --json` prints and `POST /ask` sends last. */
export interface GroundedAnswerJson {
  readonly status: GroundedAnswer['status'];
  readonly answer: string;
  readonly marked: string;
  readonly citations: readonly { readonly id: string; readonly valid: boolean }[];
  readonly invalidCitations: readonly string[];
  readonly uncitedClaims: readonly string[];
  readonly error?: string;
  readonly usage?: GroundedAnswer['usage'];
}

export function groundedAnswerJson(done: GroundedAnswer): GroundedAnswerJson {
  return {
    status: done.status,
    answer: done.text,
    marked: done.marked,
    citations: done.citations.map(({ id, valid }) => ({ id, valid })),
    invalidCitations: done.invalid,
    uncitedClaims: done.uncited,
    ...(done.error ? { error: done.error } : {}),
    ...(done.usage ? { usage: done.usage } : {}),
  };
}

/** The evidence as JSON, without the prompt text and the id set. */
export function evidenceJson(evidence: Evidence) {
  return {
    nodes: evidence.nodes,
    paths: evidence.paths,
    subgraph: evidence.subgraph,
    tokens: evidence.tokens,
    truncated: evidence.truncated,
  };
}

export { type Citation, type CitationCheck, checkCitations } from './check-citations.ts';
export {
  type Evidence,
  type EvidenceNode,
  estimateTokens,
  type GatherEvidenceOptions,
  gatherEvidence,
} from './gather-evidence.ts';
export {
  type GroundedAnswer,
  type GroundedAnswerStream,
  type StreamGroundedAnswerOptions,
  streamGroundedAnswer,
} from './stream-grounded-answer.ts';
export { evidenceJson, type GroundedAnswerJson, groundedAnswerJson } from './answer-json.ts';

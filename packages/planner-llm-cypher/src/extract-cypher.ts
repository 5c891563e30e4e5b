import { fencedBlock } from '@weft/llm';

/**
 * The query of a model's answer: `text` is what the write check and the parser read (the fence's
 * content, or the answer from its first MATCH on, without a trailing semicolon); `problem` says why
 * it is no query at all, when that is so.
 */
export interface ExtractedCypher {
  readonly text: string;
  readonly repairs: readonly string[];
  readonly problem?: string;
}

/**
 * The one Cypher query of an answer: the text of a ```cypher (or unlabelled) fence when there is
 * one, else the answer from its first MATCH on. Prose around it is tolerated; several statements
 * are the write check's to refuse. A text without MATCH is returned too (with a `problem`), so that
 * a writing statement is still reported as one.
 */
export function extractCypher(answer: string): ExtractedCypher {
  const repairs: string[] = [];
  let text = answer.trim();
  const fenced = fencedBlock(text, ['cypher', 'sql', 'neo4j', 'graphql', 'text']);
  if (fenced !== undefined) {
    text = fenced.trim();
    repairs.push('code fence removed');
  } else {
    const start = text.search(/\b(?:OPTIONAL\s+)?MATCH\b/i);
    if (start > 0) {
      text = text.slice(start).trim();
      repairs.push('text before the query dropped');
    }
  }
  text = text.replace(/;\s*$/, '').trim();
  if (!text) return { text, repairs, problem: 'the answer holds no Cypher query' };
  if (!/\bMATCH\b/i.test(text))
    return {
      text,
      repairs,
      problem: `the answer holds no MATCH clause (“${text.replace(/\s+/g, ' ').slice(0, 80)}”)`,
    };
  return { text, repairs };
}

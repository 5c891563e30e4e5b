/** One bracketed id an answer cites, and whether the evidence holds it. */
export interface Citation {
  readonly id: string;
  /** Whether the id is one the evidence showed the model. */
  readonly valid: boolean;
  /** Where the bracket starts in the answer. */
  readonly offset: number;
}

export interface CitationCheck {
  readonly citations: readonly Citation[];
  /** Cited ids that are not in the evidence (invented, or taken from elsewhere), once each. */
  readonly invalid: readonly string[];
  /** Sentences that state something without citing any node of the evidence. */
  readonly uncited: readonly string[];
  /** The answer with `[uncited]` after each such sentence and `[not in evidence: …]` after each bad citation. */
  readonly marked: string;
}

/** `[id]`, `[id, id]` or `[id; id]`: ids are what the evidence wrote in brackets (no spaces). */
const bracket = /\[([^[\]\n]+)\]/g;

/** Sentences too short to claim anything ("Yes.", "In short:") are not asked for a citation. */
const minClaimWords = 4;

/**
 * Checks an answer's citations against the evidence: every bracketed id must be one the evidence
 * named, and every sentence that claims something must cite at least one. Brackets holding other
 * text (a word with spaces) are no citation and are left alone.
 */
export function checkCitations(answer: string, evidenceIds: ReadonlySet<string>): CitationCheck {
  const citations: Citation[] = [];
  for (const match of answer.matchAll(bracket)) {
    const parts = match[1]!.split(/[,;]\s*/).map((p) => p.trim());
    if (parts.some((p) => p === '' || /\s/.test(p))) continue;
    for (const id of parts) citations.push({ id, valid: evidenceIds.has(id), offset: match.index });
  }
  const invalid = [...new Set(citations.filter((c) => !c.valid).map((c) => c.id))];
  const sentences = answer.match(/[^.!?\n]+(?:[.!?]+(?:\s*\[[^[\]\n]+\])*|$)/g) ?? [];
  const uncited: string[] = [];
  let marked = '';
  let cursor = 0;
  for (const raw of sentences) {
    const start = answer.indexOf(raw, cursor);
    const end = start + raw.length;
    marked += answer.slice(cursor, start);
    const sentence = raw.trim();
    const inside = citations.filter((c) => c.offset >= start && c.offset < end);
    let out = raw.replace(bracket, (whole, body: string) => {
      const ids = body.split(/[,;]\s*/).map((p) => p.trim());
      const bad = ids.filter((id) => !/\s/.test(id) && id !== '' && !evidenceIds.has(id));
      return bad.length > 0 && !ids.some((p) => /\s/.test(p))
        ? `${whole}[not in evidence: ${bad.join(', ')}]`
        : whole;
    });
    const words = sentence.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
    if (words >= minClaimWords && !inside.some((c) => c.valid)) {
      uncited.push(sentence);
      out = `${out.trimEnd()} [uncited]${raw.slice(raw.trimEnd().length)}`;
    }
    marked += out;
    cursor = end;
  }
  marked += answer.slice(cursor);
  return { citations, invalid, uncited, marked };
}

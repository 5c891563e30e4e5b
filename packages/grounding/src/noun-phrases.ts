import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';

/** A noun phrase of the question, as wink-nlp's part-of-speech tags delimit it. */
export interface NounPhrase {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Its words (hyphenated parts count one each), in order, with their offsets. */
  readonly words: readonly { readonly text: string; readonly start: number; readonly end: number }[];
}

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | undefined;

/** The English model is read on first use (tens of milliseconds), not on import. */
function english(): Nlp {
  nlp ??= winkNLP(model, ['sbd', 'pos']);
  return nlp;
}

/** Tags that may stand inside a noun phrase; one of `heads` must stand in it. */
const inside = new Set(['ADJ', 'NOUN', 'PROPN', 'NUM']);
const heads = new Set(['NOUN', 'PROPN', 'NUM']);

/**
 * The noun phrases of a question: maximal runs of adjectives, nouns, proper nouns and numbers
 * (hyphenated words kept whole, `full-frame`), each holding a noun. Determiners, verbs and clauses
 * end a phrase, so "which type of headache keeps coming back" offers `type` and `headache`, never
 * `coming back`. Offsets are the question's.
 */
export function nounPhrases(question: string): NounPhrase[] {
  const nlp = english();
  const doc = nlp.readDoc(question);
  const values = doc.tokens().out(nlp.its.value) as string[];
  const tags = doc.tokens().out(nlp.its.pos) as string[];
  // Offsets: wink-nlp keeps the token values; find each in order.
  const tokens: { text: string; tag: string; start: number; end: number }[] = [];
  let cursor = 0;
  values.forEach((value, i) => {
    const at = question.indexOf(value, cursor);
    if (at < 0) return;
    tokens.push({ text: value, tag: tags[i]!, start: at, end: at + value.length });
    cursor = at + value.length;
  });
  const phrases: NounPhrase[] = [];
  let run: typeof tokens = [];
  const close = () => {
    while (run.length > 0 && !heads.has(run.at(-1)!.tag)) run.pop();
    if (run.some((t) => heads.has(t.tag) && /[\p{L}\p{N}]/u.test(t.text))) {
      const start = run[0]!.start;
      const end = run.at(-1)!.end;
      phrases.push({
        text: question.slice(start, end),
        start,
        end,
        words: run
          .filter((t) => /[\p{L}\p{N}]/u.test(t.text))
          .map(({ text, start, end }) => ({ text, start, end })),
      });
    }
    run = [];
  };
  tokens.forEach((token, i) => {
    const previous = tokens[i - 1];
    const next = tokens[i + 1];
    // A hyphen written without spaces joins two words of one phrase (`full-frame`, `Fire-type`).
    const joiner =
      token.text === '-' &&
      previous !== undefined &&
      next !== undefined &&
      previous.end === token.start &&
      next.start === token.end &&
      run.length > 0;
    if (
      joiner ||
      inside.has(token.tag) ||
      (run.length > 0 && previous?.end === token.start && token.tag !== 'PUNCT' && token.tag !== 'PART')
    ) {
      run.push(token);
    } else {
      close();
    }
  });
  close();
  return phrases;
}

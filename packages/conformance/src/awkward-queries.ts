import { hostileQueries } from './text-index-suite.ts';

/** A query of about 400 words: longer than any span window, prompt or query parser expects. */
const longQuery = Array.from(
  { length: 40 },
  (_, i) => `a light rugged camera number ${i} with an F-mount for wildlife`,
).join(' and ');

/**
 * Queries every stage and retriever must survive (a result, possibly empty, never an error):
 * empty, blank, only punctuation, other scripts, very long, and query syntax.
 */
export const awkwardQueries: readonly (readonly [label: string, query: string])[] = [
  ['empty', ''],
  ['blank', '   \t\n '],
  ['only punctuation', '?!  ... --- ;;'],
  ['Japanese', '日本のカメラはどれですか'],
  ['Cyrillic', 'Какой объектив подходит к Никон?'],
  ['Arabic, right to left', 'ما هي أفضل كاميرا للحياة البرية؟'],
  ['emoji', '📷🦅 🔭'],
  ['very long', longQuery],
  ['one very long word', 'x'.repeat(5000)],
  ['query syntax', hostileQueries.join(' ')],
];

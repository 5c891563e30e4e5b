import type { IndexHit, SkbNode, TextIndexV1, TextSearchOptions } from '@weft/spec';

/** Lower-cased runs of letters and digits, in any script. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Turns a document or a query into index terms. */
export type TextAnalyzer = (text: string) => string[];

/**
 * The reference BM25 index (k1 = 1.2, b = 0.75, Lucene's idf) over name + aliases + text, by brute
 * force. Filters apply before ranking. Terms come from `analyzer` (default: `tokenize`, no stemming
 * and no stop words), so it can be matched to the analysis of the index it is compared with.
 */
export class InMemoryTextIndex implements TextIndexV1 {
  readonly specificationVersion = 'v1';
  readonly provider = 'memory';
  readonly maxQueriesPerCall = 64;
  private readonly documents: { id: string; type: string; terms: Map<string, number>; length: number }[] = [];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;
  private readonly analyze: TextAnalyzer;

  constructor(nodes: readonly SkbNode[], options: { readonly analyzer?: TextAnalyzer } = {}) {
    this.analyze = options.analyzer ?? tokenize;
    let total = 0;
    for (const node of nodes) {
      const tokens = this.analyze([node.name, ...(node.aliases ?? []), node.text].join(' '));
      const terms = new Map<string, number>();
      for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
      for (const term of terms.keys())
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      this.documents.push({ id: node.id, type: node.type, terms, length: tokens.length });
      total += tokens.length;
    }
    this.averageLength = this.documents.length ? total / this.documents.length : 0;
  }

  async doSearch(options: TextSearchOptions): Promise<IndexHit[][]> {
    const types = options.filter?.nodeTypes ? new Set(options.filter.nodeTypes) : undefined;
    const ids = options.filter?.ids ? new Set(options.filter.ids) : undefined;
    const n = this.documents.length;
    return options.queries.map((query) => {
      const terms = [...new Set(this.analyze(query))];
      const hits: IndexHit[] = [];
      for (const document of this.documents) {
        if (types && !types.has(document.type)) continue;
        if (ids && !ids.has(document.id)) continue;
        let score = 0;
        for (const term of terms) {
          const tf = document.terms.get(term);
          if (!tf) continue;
          const df = this.documentFrequency.get(term)!;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * document.length) / this.averageLength));
        }
        if (score > 0) hits.push({ id: document.id, score });
      }
      hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      return hits.slice(0, options.limit);
    });
  }

  async close(): Promise<void> {}
}

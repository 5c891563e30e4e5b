import type {
  IndexHit,
  SkbNode,
  TermStatistics,
  TermStatisticsOptions,
  TextFieldInfo,
  TextIndexV2,
  TextSearchOptionsV2,
} from '@weft/spec';
import { WeftError } from '@weft/kit';

/** Lower-cased runs of letters and digits, in any script. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Turns a document or a query into index terms. */
export type TextAnalyzer = (text: string) => string[];

interface FieldDocuments {
  readonly documents: { id: string; type: string; terms: Map<string, number>; length: number }[];
  readonly documentFrequency: Map<string, number>;
  readonly averageLength: number;
}

const fieldDescriptions: Readonly<Record<string, string>> = {
  document: "the node's own document: name, aliases and text",
  relations: "the names of the node's graph neighbours, grouped by relation",
  combined: 'document and relations as one field',
};

export interface InMemoryTextIndexOptions {
  readonly analyzer?: TextAnalyzer;
  /**
   * Each node's relation text (neighbour names by relation): when given, the index has the fields
   * `relations` and `combined` besides `document`, as a store built with relation fields has.
   */
  readonly relations?: (id: string) => string;
}

/**
 * The reference BM25 index (k1 = 1.2, b = 0.75, Lucene's idf), by brute force, with a `document`
 * field over name + aliases + text and, given relation text, `relations` and `combined` fields,
 * each with its own statistics. Filters apply before ranking. Terms come from `analyzer` (default:
 * `tokenize`, no stemming and no stop words), so it can be matched to the analysis of the index it
 * is compared with.
 */
export class InMemoryTextIndex implements TextIndexV2 {
  readonly specificationVersion = 'v2';
  readonly provider = 'memory';
  readonly maxQueriesPerCall = 64;
  readonly defaultField = 'document';
  readonly fields: readonly TextFieldInfo[];
  private readonly byField = new Map<string, FieldDocuments>();
  private readonly analyze: TextAnalyzer;

  constructor(nodes: readonly SkbNode[], options: InMemoryTextIndexOptions = {}) {
    this.analyze = options.analyzer ?? tokenize;
    const document = (node: SkbNode) => [node.name, ...(node.aliases ?? []), node.text].join(' ');
    const texts: Record<string, (node: SkbNode) => string> = { document };
    const relations = options.relations;
    if (relations) {
      texts.relations = (node) => relations(node.id);
      texts.combined = (node) => `${document(node)} ${relations(node.id)}`;
    }
    for (const [field, text] of Object.entries(texts)) this.byField.set(field, this.indexField(nodes, text));
    this.fields = Object.keys(texts).map((name) => ({ name, description: fieldDescriptions[name]! }));
  }

  private indexField(nodes: readonly SkbNode[], text: (node: SkbNode) => string): FieldDocuments {
    const documents: FieldDocuments['documents'] = [];
    const documentFrequency = new Map<string, number>();
    let total = 0;
    for (const node of nodes) {
      const tokens = this.analyze(text(node));
      const terms = new Map<string, number>();
      for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
      for (const term of terms.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
      documents.push({ id: node.id, type: node.type, terms, length: tokens.length });
      total += tokens.length;
    }
    return { documents, documentFrequency, averageLength: documents.length ? total / documents.length : 0 };
  }

  async doSearch(options: TextSearchOptionsV2): Promise<IndexHit[][]> {
    const field = this.byField.get(options.field ?? this.defaultField);
    if (!field) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `no text field "${options.field}" (fields: ${[...this.byField.keys()].join(', ')})`,
      });
    }
    const types = options.filter?.nodeTypes ? new Set(options.filter.nodeTypes) : undefined;
    const ids = options.filter?.ids ? new Set(options.filter.ids) : undefined;
    const n = field.documents.length;
    return options.queries.map((query) => {
      const terms = [...new Set(this.analyze(query))];
      const hits: IndexHit[] = [];
      for (const document of field.documents) {
        if (types && !types.has(document.type)) continue;
        if (ids && !ids.has(document.id)) continue;
        let score = 0;
        for (const term of terms) {
          const tf = document.terms.get(term);
          if (!tf) continue;
          const df = field.documentFrequency.get(term)!;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * document.length) / field.averageLength));
        }
        if (score > 0) hits.push({ id: document.id, type: document.type, score });
      }
      hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      return hits.slice(0, options.limit);
    });
  }

  async doTermStatistics({ texts, field }: TermStatisticsOptions): Promise<TermStatistics[]> {
    const documents = this.byField.get(field ?? this.defaultField);
    if (!documents) throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `no text field "${field}"` });
    const present = documents.documents.filter((d) => d.length > 0).length;
    return texts.map((text) => ({
      documents: present,
      terms: [...new Set(this.analyze(text))].map((term) => ({
        term,
        documentFrequency: documents.documentFrequency.get(term) ?? 0,
      })),
    }));
  }

  async close(): Promise<void> {}
}

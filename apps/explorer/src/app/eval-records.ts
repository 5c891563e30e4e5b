/** What the explorer reads of one line of `weft eval --out`'s records.jsonl (a QueryRecord of @weft/eval). */
export interface EvalRecord {
  readonly stack: string;
  readonly queryId: string;
  readonly query: string;
  readonly gold: readonly string[];
  readonly ranking: readonly { readonly id: string }[];
  readonly metrics: {
    readonly hit1: number;
    readonly hit5: number;
    readonly recall20: number;
    readonly mrr: number;
  };
  readonly error?: { readonly code: string; readonly message: string };
}

/** One query compared between two stacks; `delta` is B's MRR minus A's. */
export interface QueryComparison {
  readonly queryId: string;
  readonly query: string;
  readonly gold: readonly string[];
  /** Rank (from 1) of the first gold answer in each stack's ranking; undefined when absent. */
  readonly rankA?: number;
  readonly rankB?: number;
  readonly delta: number;
  readonly outcome: 'win' | 'loss' | 'tie';
}

export interface Comparison {
  readonly a: string;
  readonly b: string;
  readonly queries: readonly QueryComparison[];
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
  readonly meanMrr: { readonly a: number; readonly b: number };
  readonly hit1: { readonly a: number; readonly b: number };
}

/** Parses records.jsonl; a line that is not a record is reported by its number. */
export function parseRecords(text: string): { records: EvalRecord[]; problems: string[] } {
  const records: EvalRecord[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const record = JSON.parse(line) as EvalRecord;
      if (typeof record.stack !== 'string' || typeof record.queryId !== 'string' || !record.metrics)
        throw new Error('not a query record');
      records.push(record);
    } catch (error) {
      problems.push(`line ${i + 1}: ${(error as Error).message}`);
    }
  });
  return { records, problems };
}

/** The stacks of the records, in order of appearance. */
export function recordStacks(records: readonly EvalRecord[]): string[] {
  return [...new Set(records.map((r) => r.stack))];
}

function firstGoldRank(record: EvalRecord): number | undefined {
  const gold = new Set(record.gold);
  const index = record.ranking.findIndex((r) => gold.has(r.id));
  return index < 0 ? undefined : index + 1;
}

/**
 * Per-query wins and losses of stack `b` against stack `a` over the queries both answered, by MRR
 * (the reciprocal rank of the first gold answer); biggest changes first.
 */
export function compareRecords(records: readonly EvalRecord[], a: string, b: string): Comparison {
  const ofA = new Map(records.filter((r) => r.stack === a).map((r) => [r.queryId, r]));
  const queries: QueryComparison[] = [];
  const paired: (readonly [EvalRecord, EvalRecord])[] = [];
  for (const recordB of records.filter((r) => r.stack === b)) {
    const recordA = ofA.get(recordB.queryId);
    if (!recordA) continue;
    paired.push([recordA, recordB]);
    const delta = recordB.metrics.mrr - recordA.metrics.mrr;
    const rankA = firstGoldRank(recordA);
    const rankB = firstGoldRank(recordB);
    queries.push({
      queryId: recordB.queryId,
      query: recordB.query,
      gold: recordB.gold,
      ...(rankA === undefined ? {} : { rankA }),
      ...(rankB === undefined ? {} : { rankB }),
      delta,
      outcome: Math.abs(delta) < 1e-9 ? 'tie' : delta > 0 ? 'win' : 'loss',
    });
  }
  queries.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.queryId.localeCompare(y.queryId));
  const mean = (values: readonly number[]) =>
    values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
  return {
    a,
    b,
    queries,
    wins: queries.filter((q) => q.outcome === 'win').length,
    losses: queries.filter((q) => q.outcome === 'loss').length,
    ties: queries.filter((q) => q.outcome === 'tie').length,
    meanMrr: { a: mean(paired.map(([x]) => x.metrics.mrr)), b: mean(paired.map(([, y]) => y.metrics.mrr)) },
    hit1: { a: mean(paired.map(([x]) => x.metrics.hit1)), b: mean(paired.map(([, y]) => y.metrics.hit1)) },
  };
}

/** What the eval browser's filter offers, in words: B's wins, B's losses, ties. */
export const filterLabels: Readonly<Record<'all' | 'win' | 'loss' | 'tie', string>> = {
  all: 'all queries',
  win: 'wins of B',
  loss: 'losses of B',
  tie: 'ties',
};

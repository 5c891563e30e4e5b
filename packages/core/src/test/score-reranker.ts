import type { Candidate, RerankerV1, RerankOptions } from '@weft/spec';

/** The reference reranker: orders by one named component score (missing = -∞), then by id. */
export class ScoreReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly scoreName: string;

  constructor(scoreName: string) {
    this.scoreName = scoreName;
    this.name = `score:${scoreName}`;
  }

  async doRerank({ candidates, limit }: RerankOptions): Promise<Candidate[]> {
    const value = (candidate: Candidate) => candidate.scores[this.scoreName] ?? Number.NEGATIVE_INFINITY;
    return (
      [...candidates]
        .sort((a, b) => value(b) - value(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, limit)
        // Scores descend with rank, so they agree with the order whatever the component's values.
        .map((candidate, rank, ranked) => ({ ...candidate, score: ranked.length - rank }))
    );
  }
}

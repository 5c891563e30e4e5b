// Test support (not a test, not built): every way a model's Cypher can go wrong, each with the
// model that answers so and what the planner must make of it. Run with AI SDK mocks and cassettes.
import { MockLanguageModelV4, textResult } from '@weft/core/test';
import type { Plan } from '@weft/spec';
import { expect } from 'vitest';

export const nikonQuery = 'cameras made by Nikon for wildlife';

export const validCypher =
  "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}) WHERE p.text CONTAINS 'wildlife' RETURN p";

export interface CypherOutcome {
  readonly plan: Plan;
  readonly offline: Plan;
  readonly warnings: readonly string[];
  /** `doCypher` calls the store saw, and its counts before and after. */
  readonly cypherCalls: number;
  readonly countsBefore: { nodes: number; edges: number };
  readonly countsAfter: { nodes: number; edges: number };
}

export interface CypherCase {
  readonly name: string;
  readonly query: string;
  readonly model: () => MockLanguageModelV4;
  readonly timeoutMs?: number;
  readonly recordTimeoutMs?: number;
  readonly check: (outcome: CypherOutcome) => void;
}

const answering = (text: string) => () =>
  new MockLanguageModelV4({ doGenerate: textResult(text, { input: 250, output: 40 }) });

const fellBack = (outcome: CypherOutcome, reason: RegExp) => {
  expect(outcome.plan).toEqual(outcome.offline);
  expect(
    outcome.warnings.some(
      (w) => /^write cypher: /.test(w) && reason.test(w) && /the offline plan is used$/.test(w),
    ),
    outcome.warnings.join('\n'),
  ).toBe(true);
};

const nothingRan = (outcome: CypherOutcome) => {
  expect(outcome.cypherCalls).toBe(0);
  expect(outcome.countsAfter).toEqual(outcome.countsBefore);
};

const writes: readonly [string, string][] = [
  ['CREATE', "CREATE (p:product {name: 'Free camera', text: 'wildlife'}) RETURN p"],
  ['MERGE', "MATCH (b:brand {name: 'Nikon'}) MERGE (p:product {name: 'x'})-[:made_by]->(b) RETURN p"],
  ['SET', "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}) SET p.text = 'wildlife' RETURN p"],
  ['DELETE', "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}) DELETE p RETURN b"],
  ['DETACH DELETE', "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}) DETACH DELETE b RETURN p"],
  ['REMOVE', 'MATCH (p:product) REMOVE p.text RETURN p'],
  ['DROP', 'DROP TABLE product'],
  ['LOAD CSV', "LOAD CSV FROM 'file:///etc/passwd' AS row MATCH (p:product) RETURN p"],
  ['CALL', "CALL db.index.fulltext.queryNodes('text', 'wildlife') YIELD node RETURN node"],
];

export const cypherCases: readonly CypherCase[] = [
  {
    name: 'a valid query',
    query: nikonQuery,
    model: answering(`\`\`\`cypher\n${validCypher};\n\`\`\``),
    check: (outcome) => {
      expect(outcome.warnings).toEqual([]);
      expect(outcome.plan).toMatchObject({
        cypher: validCypher,
        target: 'p',
        targetTypes: [{ type: 'product', score: 1 }],
        restriction: 'wildlife',
        variables: [{ name: 'p', nodeTypes: ['product'], restriction: 'wildlife' }],
        triplets: [
          {
            subject: { kind: 'variable', name: 'p' },
            edgeType: 'made_by',
            object: { kind: 'anchor', anchor: 0 },
          },
        ],
      });
      expect(outcome.plan.anchors[0]!.candidates[0]).toMatchObject({ id: 'b:nikon', type: 'brand' });
      nothingRan(outcome);
    },
  },
  {
    name: 'not Cypher at all',
    query: nikonQuery,
    model: answering('Look for Nikon cameras that mention wildlife.'),
    check: (outcome) => fellBack(outcome, /no MATCH clause/),
  },
  {
    name: 'unreadable Cypher',
    query: nikonQuery,
    model: answering("MATCH (p:product)-[:made_by->(b {name: 'Nikon'}) RETURN p"),
    check: (outcome) => fellBack(outcome, /cannot be read/),
  },
  {
    name: 'unknown label and relation spellings',
    query: nikonQuery,
    model: answering("MATCH (p:Products)-[:MADE_BY]->(b:Brand {name: 'Nikon'}) RETURN p"),
    check: ({ plan, warnings }) => {
      expect(plan.triplets[0]).toMatchObject({ edgeType: 'made_by' });
      expect(plan.variables[0]).toMatchObject({ name: 'p', nodeTypes: ['product'] });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^write cypher: the model's query was repaired: label "Products" read as "product"/,
      );
    },
  },
  {
    name: 'a relation the schema lacks',
    query: nikonQuery,
    model: answering("MATCH (p)-[:sold_by]->(b {name: 'Nikon'}) RETURN p"),
    check: (outcome) => fellBack(outcome, /constrains nothing .*"sold_by" is not an edge type/),
  },
  {
    name: 'a wrong direction',
    query: nikonQuery,
    model: answering("MATCH (p:product)<-[:made_by]-(b:brand {name: 'Nikon'}) RETURN p"),
    check: ({ plan, warnings }) => {
      expect(plan.triplets[0]).toEqual({
        subject: { kind: 'variable', name: 'p' },
        edgeType: 'made_by',
        object: { kind: 'anchor', anchor: 0 },
      });
      expect(warnings.join('\n')).toMatch(/made_by turned around/);
    },
  },
  {
    name: 'an empty plan',
    query: nikonQuery,
    model: answering('MATCH (n) RETURN n'),
    check: (outcome) => fellBack(outcome, /constrains nothing/),
  },
  {
    name: 'returning the named node',
    query: nikonQuery,
    model: answering("MATCH (b:brand {name: 'Nikon'}) RETURN b"),
    check: (outcome) => fellBack(outcome, /returns b, a node it names itself/),
  },
  ...writes.map(
    ([clause, cypher]): CypherCase => ({
      name: `a writing query (${clause})`,
      query: nikonQuery,
      model: answering(`\`\`\`cypher\n${cypher}\n\`\`\``),
      check: (outcome) => {
        fellBack(outcome, new RegExp(`rejected before anything ran: ${clause.split(' ')[0]}`));
        nothingRan(outcome);
      },
    }),
  ),
  {
    name: 'a refusal',
    query: nikonQuery,
    model: answering("I'm sorry, I can't write database queries."),
    check: (outcome) => fellBack(outcome, /the model refused/),
  },
  {
    name: 'a provider error',
    query: nikonQuery,
    model: () =>
      new MockLanguageModelV4({
        doGenerate: async () => {
          throw Object.assign(new Error('rate limited'), { name: 'AI_APICallError', statusCode: 429 });
        },
      }),
    check: (outcome) => fellBack(outcome, /the provider failed with HTTP 429: rate limited/),
  },
  {
    name: 'a slow model',
    query: nikonQuery,
    timeoutMs: 40,
    recordTimeoutMs: 10_000,
    model: () =>
      new MockLanguageModelV4({
        doGenerate: () => new Promise((resolve) => setTimeout(() => resolve(textResult(validCypher)), 400)),
      }),
    check: (outcome) => fellBack(outcome, /did not answer within 40 ms/),
  },
];

// The suites checked against the in-memory reference implementations of @weft/core/test, the mocks,
// and small reference stages written here (the contracts have no reference planner, critic or
// expander in @weft/core/test).
import { createRetriever } from '@weft/core';
import { emptyPlan } from '@weft/kit';
import {
  InMemoryGraphStore,
  InMemoryTextIndex,
  InMemoryVectorIndex,
  MockCritic,
  MockExpander,
  MockPlanner,
  ReferencePathTraverser,
  ScoreReranker,
} from '@weft/core/test';
import type {
  Anchor,
  CriticV1,
  CriticVerdict,
  CritiqueOptions,
  Expansion,
  ExpanderV1,
  ExpandOptions,
  Plan,
  PlannerV1,
  PlanOptions,
  PlanPath,
  PlanTriplet,
} from '@weft/spec';
import {
  linkingPlanner,
  runCriticSuite,
  runExpanderSuite,
  runGraphStoreSuite,
  runPlannerSuite,
  runRerankerSuite,
  runRetrieverSuite,
  runTextIndexSuite,
  runTraverserSuite,
  runVectorIndexSuite,
} from './index.ts';

runGraphStoreSuite({ name: 'InMemoryGraphStore', create: async (skb) => new InMemoryGraphStore(skb) });
runTextIndexSuite({ name: 'InMemoryTextIndex', create: async (nodes) => new InMemoryTextIndex(nodes) });
runVectorIndexSuite({
  name: 'InMemoryVectorIndex',
  create: async (options) => new InMemoryVectorIndex(options),
});
runTraverserSuite({ name: 'ReferencePathTraverser', create: async () => new ReferencePathTraverser() });
runRerankerSuite({ name: 'ScoreReranker(bm25)', create: async () => new ScoreReranker('bm25') });

/** Spans of one to three words that start with a capital or a digit: what may name a node. */
function mentions(query: string): string[] {
  const words = query.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  const spans = new Set<string>();
  for (let i = 0; i < words.length; i++)
    for (let n = 1; n <= 3 && i + n <= words.length; n++)
      if (/^[\p{Lu}\p{N}]/u.test(words[i]!)) spans.add(words.slice(i, i + n).join(' '));
  return [...spans].slice(0, 60);
}

/**
 * A reference planner: exact look-up of capitalised spans, one-hop paths from each anchor into the
 * target types over every edge type that connects them, the same as triplets on a variable `x`.
 */
class LookupPlanner implements PlannerV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'lookup';

  async doPlan({ query, context }: PlanOptions): Promise<Plan> {
    const base = emptyPlan(query, context.schema);
    const spans = mentions(query);
    if (spans.length === 0) return base;
    const matches = await context.graph.doLookup(spans, {
      fuzzy: false,
      limit: 3,
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    const anchors: Anchor[] = [];
    matches.forEach((list, i) => {
      if (list.length > 0)
        anchors.push({
          mention: spans[i]!,
          candidates: list.map((m) => ({ id: m.id, type: m.type, score: m.score })),
          confidence: list[0]!.score,
        });
    });
    const targets = base.targetTypes.map((t) => t.type);
    const paths: PlanPath[] = [];
    const triplets: PlanTriplet[] = [];
    anchors.forEach((anchor, a) => {
      const type = anchor.candidates[0]!.type;
      for (const edge of context.schema.edgeTypes) {
        for (const target of targets) {
          const x = { kind: 'variable' as const, name: 'x' };
          const at = { kind: 'anchor' as const, anchor: a };
          if (edge.from === target && edge.to === type) {
            paths.push({
              anchor: a,
              hops: [{ edgeType: edge.name, direction: 'in', nodeTypes: [target] }],
              score: 1,
            });
            triplets.push({ subject: x, edgeType: edge.name, object: at });
          }
          if (edge.from === type && edge.to === target && edge.from !== edge.to) {
            paths.push({
              anchor: a,
              hops: [{ edgeType: edge.name, direction: 'out', nodeTypes: [target] }],
              score: 1,
            });
            triplets.push({ subject: at, edgeType: edge.name, object: x });
          }
        }
      }
    });
    return {
      ...base,
      anchors,
      paths,
      variables: [{ name: 'x', nodeTypes: targets }],
      triplets,
      target: 'x',
      confidence: anchors.length > 0 ? 0.5 : 0,
    };
  }
}

/** A reference critic: rejects an empty round, and one without any candidate of a target type. */
class TargetTypeCritic implements CriticV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'target-type';

  async doCritique({ candidates, plan, context }: CritiqueOptions): Promise<CriticVerdict> {
    if (candidates.length === 0)
      return {
        accept: false,
        feedback: [{ kind: 'no-intersection', message: 'no candidate satisfies the plan' }],
      };
    const targets = new Set(context.schema.targetTypes ?? plan.targetTypes.map((t) => t.type));
    if (candidates.some((c) => c.type === undefined || targets.has(c.type))) return { accept: true };
    const mention = plan.anchors[0]?.mention;
    return {
      accept: false,
      feedback: [
        {
          kind: 'incorrect-entity',
          message: `no candidate is a ${[...targets].join(' or ')}`,
          ...(mention ? { entity: mention } : {}),
        },
      ],
    };
  }
}

/** A reference expander (KAR, by look-up): the named nodes' neighbours as triples, appended to the query. */
class NeighbourExpander implements ExpanderV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'neighbours';

  async doExpand({ query, context }: ExpandOptions): Promise<Expansion> {
    const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
    const spans = mentions(query);
    if (spans.length === 0) return { query, expansion: '', triples: [] };
    const matches = await context.graph.doLookup(spans, { fuzzy: false, limit: 1, ...signal });
    const seeds = [...new Set(matches.flatMap((list) => list.slice(0, 1).map((m) => m.id)))].sort();
    if (seeds.length === 0) return { query, expansion: '', triples: [] };
    const neighbors = (
      await context.graph.doNeighbors({ seeds, direction: 'both', limitPerSeed: 3, ...signal })
    ).sort((a, b) => (a.seed + a.node + a.edgeType < b.seed + b.node + b.edgeType ? -1 : 1));
    const ids = [...new Set([...seeds, ...neighbors.map((n) => n.node)])];
    const nodes = await context.graph.doGetNodes(ids, signal);
    const name = new Map(nodes.flatMap((node) => (node ? [[node.id, node.name] as const] : [])));
    const relation = new Map(context.schema.edgeTypes.map((t) => [t.name, t.description ?? t.name]));
    const triples = neighbors.map((n) => {
      const [subject, object] = n.direction === 'out' ? [n.seed, n.node] : [n.node, n.seed];
      return { subject: name.get(subject)!, relation: relation.get(n.edgeType)!, object: name.get(object)! };
    });
    const expansion = triples.map((t) => `${t.subject} ${t.relation} ${t.object}`).join('; ');
    return { query: expansion ? `${query} (${expansion})` : query, expansion, triples };
  }
}

runPlannerSuite({ name: 'LookupPlanner (reference)', create: async () => new LookupPlanner() });
// The fixture other packages' tests wrap: it has to plan what the pipeline accepts.
runPlannerSuite({ name: 'linkingPlanner (fixture)', create: async () => linkingPlanner() });
runPlannerSuite({
  name: 'linkingPlanner (fixture, calibrated relations on every mention)',
  create: async () =>
    linkingPlanner({
      relations: [{ edgeType: 'made_by', direction: 'in', confidence: 0.8 }],
      confidence: 0.3,
    }),
});
runPlannerSuite({
  name: 'MockPlanner (empty plans)',
  linksEntities: false,
  create: async () => new MockPlanner({ doPlan: ({ query, context }) => emptyPlan(query, context.schema) }),
});

runCriticSuite({ name: 'TargetTypeCritic (reference)', create: async () => new TargetTypeCritic() });
runCriticSuite({
  name: 'MockCritic (accepts)',
  create: async () => new MockCritic({ doCritique: { accept: true } }),
});

runExpanderSuite({ name: 'NeighbourExpander (reference)', create: async () => new NeighbourExpander() });
runExpanderSuite({
  name: 'MockExpander (identity)',
  create: async () => new MockExpander({ doExpand: ({ query }) => ({ query, expansion: '', triples: [] }) }),
});

runRetrieverSuite({
  name: 'createRetriever(reference text fallback)',
  create: async (context) =>
    createRetriever({ name: 'reference', context, traversers: [new ReferencePathTraverser()] }),
});
runRetrieverSuite({
  name: 'createRetriever(expander, planner, traverser, reranker, critic)',
  create: async (context) =>
    createRetriever({
      name: 'reference-full',
      context,
      expander: new NeighbourExpander(),
      planner: new LookupPlanner(),
      traversers: [new ReferencePathTraverser(), new ReferencePathTraverser()],
      rerankers: [new ScoreReranker('traversal')],
      critic: new TargetTypeCritic(),
    }),
});

import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { WeftError } from '@weft/kit';
import type { SkbSchema } from '@weft/spec';
import type { GoldPlan } from './gold-plans.ts';
import {
  commentAnswer,
  compareAnswer,
  expandAnswer,
  expertWeightsAnswer,
  judgeAnswer,
  rankListAnswer,
  triedRoutes,
  validateAnswer,
} from './stage-answers.ts';

/** What a prompt asks, told by the stage's purpose (`purposeOptions`) or, without one, its wording. */
export type OracleTask =
  | 'plan-paths'
  | 'write-cypher'
  | 'route'
  | 'rank-list'
  | 'judge-relevance'
  | 'compare-two'
  | 'validate'
  | 'comment'
  | 'expand'
  | 'weigh-experts'
  | 'unknown';

/** How the oracle went: calls by task, and planning prompts about questions it has no plan for. */
export interface OracleStats {
  readonly calls: Readonly<Partial<Record<OracleTask, number>>>;
  readonly unknownQuestions: number;
}

export interface OracleModel extends LanguageModelV4 {
  /** Calls so far by task, and planning prompts whose question had no gold plan. */
  stats(): OracleStats;
}

const byPurpose: Readonly<Record<string, OracleTask>> = {
  'plan paths': 'plan-paths',
  'write cypher': 'write-cypher',
  route: 'route',
  'refine route': 'route',
  'rank candidates': 'rank-list',
  'judge relevance': 'judge-relevance',
  'compare two candidates': 'compare-two',
  'validate results': 'validate',
  'comment on results': 'comment',
  'expand query': 'expand',
  'weigh experts': 'weigh-experts',
};

/** Wording of the stages' instructions, for calls made without a purpose. */
const byWording: readonly [RegExp, OracleTask][] = [
  [/You plan retrieval over a typed knowledge graph/, 'plan-paths'],
  [/read-only Cypher/, 'write-cypher'],
  [/You route questions over a knowledge graph/, 'route'],
  [/\nCandidates:\n\[1\]/, 'rank-list'],
  [/\nCandidate A: /, 'compare-two'],
  [/\nCandidate: /, 'judge-relevance'],
  [/You check the results of a knowledge-base search/, 'validate'],
  [/results were judged wrong\. Say what to correct/, 'comment'],
  [/You expand search questions for a knowledge base/, 'expand'],
  [/You route a question over a knowledge graph to retrieval experts/, 'weigh-experts'],
];

function taskOf(options: LanguageModelV4CallOptions, text: string): OracleTask {
  const purpose = (options.providerOptions?.weft as { purpose?: unknown } | undefined)?.purpose;
  if (typeof purpose === 'string' && byPurpose[purpose]) return byPurpose[purpose];
  return byWording.find(([pattern]) => pattern.test(text))?.[1] ?? 'unknown';
}

/** The question a prompt is about: the last `Question: "<JSON string literal>"` in it. */
export function questionOf(text: string): string | undefined {
  const matches = [...text.matchAll(/Question: ("(?:[^"\\\n]|\\.)*")/g)];
  const last = matches.at(-1)?.[1];
  if (last === undefined) return undefined;
  try {
    return JSON.parse(last) as string;
  } catch {
    return undefined;
  }
}

const plainName = /^[A-Za-z_][A-Za-z0-9_]*$/;
const cypherName = (name: string) => (plainName.test(name) ? name : `\`${name.replace(/`/g, '``')}\``);

/** MoR's planning graph (`pathPlanOutputSchema` of `@weft/llm`) for a gold plan. */
export function pathPlanAnswer(plan: GoldPlan): string {
  const target = plan.targetTypes[0];
  return JSON.stringify({
    targetTypes: plan.targetTypes.slice(0, 1),
    anchors: plan.anchors.map((a) => ({ mention: a.mention, type: a.type })),
    paths: plan.paths.slice(0, 3).map((path) => ({
      anchor: plan.anchors[path.anchor]!.mention,
      hops: path.hops.map((hop, i) => ({
        edge: hop.edgeType,
        direction: hop.direction,
        ...(i === path.hops.length - 1 && target ? { nodeType: target } : {}),
      })),
    })),
    restriction: plan.restriction,
  });
}

/**
 * FocusedRetriever's Cypher for a gold plan: one pattern per path from the anchor (by its mention) to the
 * answer `x`, anchors without a path as patterns of their own, the restriction as
 * `x.text CONTAINS`.
 */
export function cypherAnswer(plan: GoldPlan): string {
  const target = plan.targetTypes[0];
  const answer = `(x${target ? `:${cypherName(target)}` : ''})`;
  const anchorNode = (index: number) => {
    const node = plan.anchors[index]!;
    return `(a${index}:${cypherName(node.type)} {name: ${JSON.stringify(node.mention)}})`;
  };
  const patterns: string[] = [];
  const used = new Set<number>();
  for (const [p, path] of plan.paths.entries()) {
    let pattern = used.has(path.anchor) ? `(a${path.anchor})` : anchorNode(path.anchor);
    used.add(path.anchor);
    for (const [h, hop] of path.hops.entries()) {
      const next = h === path.hops.length - 1 ? (patterns.length === 0 ? answer : '(x)') : `(v${p}_${h})`;
      // Cypher's own syntax, not a label for people (`relationLabel` of @weft/kit): `-[:e]->` / `<-[:e]-`.
      const edge = `[:${cypherName(hop.edgeType)}]`;
      pattern += hop.direction === 'out' ? `-${edge}->${next}` : `<-${edge}-${next}`;
    }
    patterns.push(pattern);
  }
  if (patterns.length === 0) patterns.push(answer);
  for (const index of plan.anchors.keys()) if (!used.has(index)) patterns.push(anchorNode(index));
  const where = plan.restriction ? ` WHERE x.text CONTAINS ${JSON.stringify(plan.restriction)}` : '';
  return `MATCH ${patterns.join(', ')}${where} RETURN x`;
}

/** HybGRAG's router action of the text module. */
const textRouteAnswer = JSON.stringify({ module: 'text', entities: [], reason: 'the gold route was tried' });

/** HybGRAG's router action for a gold plan: the hybrid module, each anchor with its (≤ 2-hop) relations. */
export function routeAnswer(plan: GoldPlan): string {
  if (plan.anchors.length === 0) return JSON.stringify({ module: 'text', entities: [] });
  return JSON.stringify({
    module: 'hybrid',
    entities: plan.anchors.map((anchor, index) => ({
      mention: anchor.mention,
      relations: plan.paths
        .filter((path) => path.anchor === index && path.hops.length <= 2)
        .map(({ hops: [first, second] }) => ({
          edge: first!.edgeType,
          direction: first!.direction,
          ...(second ? { next: { edge: second.edgeType, direction: second.direction } } : {}),
        })),
    })),
    reason: 'the gold plan',
  });
}

/** The answer of a task about a question without a gold plan: keep the order, accept, no opinion. */
function neutralAnswer(task: OracleTask, text: string, question: string | undefined): string {
  switch (task) {
    case 'rank-list':
      return rankListAnswer(text, undefined, { rerank: 'keep', wrong: false });
    case 'judge-relevance':
      return JSON.stringify({ score: 5, reason: 'no opinion' });
    case 'compare-two':
      return JSON.stringify({ better: 'tie', reason: 'no opinion' });
    case 'validate':
      return JSON.stringify({ accept: true, reason: 'accepted' });
    case 'comment':
      return JSON.stringify({ feedback: [{ kind: 'wrong-module', message: 'no opinion' }] });
    case 'expand':
      return JSON.stringify({ expansions: [question ?? 'no expansion'] });
    default:
      return '{}';
  }
}

/** The stages whose answer is a judgement rather than a plan: `noisyStages` makes them wrong. */
export const judgedTasks = [
  'weigh-experts',
  'rank-list',
  'judge-relevance',
  'compare-two',
  'validate',
  'comment',
] as const satisfies readonly OracleTask[];

/** For each judged stage, the queries (by id) whose answer the oracle gets wrong. */
export type WrongStages = ReadonlyMap<OracleTask, ReadonlySet<string>>;

/**
 * `noise` of the queries, for each judged stage (`judgedTasks`) on its own: exactly
 * `round(noise × n)` query ids, chosen by a seeded hash of the stage and the query id (the same for
 * the same seed, whatever the order; another stage, other queries). The planning stages are made
 * wrong through their plans (`corruptPlans`), and so is KAR's expansion, which is written from them.
 */
export function noisyStages(
  plans: readonly GoldPlan[],
  options: { readonly noise: number; readonly seed?: number },
): WrongStages {
  if (!(options.noise >= 0 && options.noise <= 1))
    throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `noise must be in [0, 1], got ${options.noise}` });
  const seed = options.seed ?? 1;
  const ids = [...new Set(plans.map((p) => p.queryId))];
  const count = Math.round(options.noise * ids.length);
  return new Map(
    judgedTasks.map((task) => {
      const order = [...ids].sort(
        (a, b) => hash(`${seed}:${task}:${a}`) - hash(`${seed}:${task}:${b}`) || a.localeCompare(b),
      );
      return [task, new Set(order.slice(0, count))] as const;
    }),
  );
}

export interface OracleModelOptions {
  /** The plans to answer with, by question text (`resolveGoldPlans`, possibly `corruptPlans`). */
  readonly plans: readonly GoldPlan[];
  /** Shown in traces as `oracle:<modelId>` (default `gold`). */
  readonly modelId?: string;
  /**
   * How the rerankers (listwise, pointwise, pairwise) are answered: the gold answers first
   * (`gold`, default), or the given order kept (`keep`: a listwise reranker gets its order back,
   * a pointwise judge one score for all, a pairwise judge a tie), to measure the planners alone.
   */
  readonly rerank?: 'gold' | 'keep';
  /** The judged stages answered wrong, by query id (`noisyStages`); none by default. */
  readonly wrong?: WrongStages;
}

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/**
 * A scripted language model (AI SDK `LanguageModelV4`) that answers every LLM stage of the stacks
 * from the gold annotations of the question it is about, in the stage's format: MoR's path planner
 * (`plan paths`), FocusedRetriever's Cypher planner (`write cypher`) and HybGRAG's router (`route`,
 * `refine route`) with the gold plan; KAR's expansion, MixRAG's expert weights, HybGRAG's validator
 * and commentor and the listwise, pointwise and pairwise rerankers from the plan and its gold
 * answers (`stage-answers.ts`; `rerank: 'keep'` keeps the rerankers to the given order). `wrong`
 * (`noisyStages`) makes the judged stages wrong on the queries it names. The question is read from
 * the prompt (`Question: "<…>"`, the last one; a question an expander lengthened is known by its
 * start); a planning prompt about a question without a gold plan gets `{}`, which the planners
 * reject (they fall back, as with a bad answer), and any other prompt about one a neutral answer
 * (the given order, a tie, one score for all, an accept, the question as the expansion).
 * No network; token usage is estimated (4 characters a token) so that metering reads as usual.
 */
export function oracleLanguageModel(options: OracleModelOptions): OracleModel {
  const byQuestion = new Map<string, GoldPlan>();
  for (const plan of options.plans) {
    const seen = byQuestion.get(plan.question);
    if (
      seen &&
      seen.queryId !== plan.queryId &&
      JSON.stringify({ ...seen, queryId: '' }) !== JSON.stringify({ ...plan, queryId: '' })
    )
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `queries ${seen.queryId} and ${plan.queryId} ask the same question with other gold plans: the oracle model cannot tell them apart`,
      });
    byQuestion.set(plan.question, plan);
  }
  /** The question itself, or the longest known one it starts with (an expander appended text). */
  const knownQuestion = (question: string): string | undefined => {
    if (byQuestion.has(question)) return question;
    let best: string | undefined;
    for (const known of byQuestion.keys())
      if (
        known.length > (best?.length ?? 0) &&
        question.startsWith(known) &&
        /\s/.test(question.charAt(known.length))
      )
        best = known;
    return best;
  };
  const calls: Partial<Record<OracleTask, number>> = {};
  let unknownQuestions = 0;

  const answer = (call: LanguageModelV4CallOptions): string => {
    const text = call.prompt
      .map((message) =>
        message.role === 'system'
          ? message.content
          : message.role === 'user'
            ? message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
            : '',
      )
      .join('\n');
    const task = taskOf(call, text);
    calls[task] = (calls[task] ?? 0) + 1;
    const question = questionOf(text);
    const known = question === undefined ? undefined : knownQuestion(question);
    const plan = known === undefined ? undefined : byQuestion.get(known);
    if (task === 'plan-paths' || task === 'write-cypher' || task === 'route') {
      if (!plan) {
        unknownQuestions++;
        return '{}';
      }
      if (task === 'plan-paths') return pathPlanAnswer(plan);
      if (task === 'write-cypher') return cypherAnswer(plan);
      // A refinement: the gold route until it was tried, then the text module, then the gold
      // route again (which the router rejects as a repeat: its offline refinement decides).
      const tried = triedRoutes(text, plan);
      return tried.gold && !tried.text ? textRouteAnswer : routeAnswer(plan);
    }
    if (!plan) return neutralAnswer(task, text, question);
    const wrong = options.wrong?.get(task)?.has(plan.queryId) ?? false;
    const rerank = options.rerank ?? 'gold';
    switch (task) {
      case 'expand':
        return expandAnswer(text, plan);
      case 'weigh-experts':
        return expertWeightsAnswer(plan, wrong);
      case 'rank-list':
        return rankListAnswer(text, plan, { rerank, wrong });
      case 'judge-relevance':
        return judgeAnswer(text, plan, { rerank, wrong });
      case 'compare-two':
        return compareAnswer(text, plan, { rerank, wrong });
      case 'validate':
        return validateAnswer(text, plan, wrong);
      case 'comment':
        return commentAnswer(text, plan, wrong);
      default:
        return neutralAnswer(task, text, question);
    }
  };

  const generate = async (call: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
    call.abortSignal?.throwIfAborted();
    const text = answer(call);
    const input = tokens(JSON.stringify(call.prompt));
    return {
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: tokens(text), text: tokens(text), reasoning: undefined },
      },
      warnings: [],
    };
  };

  return {
    specificationVersion: 'v4',
    provider: 'oracle',
    modelId: options.modelId ?? 'gold',
    supportedUrls: {},
    doGenerate: generate,
    async doStream(call) {
      const result = await generate(call);
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: '0' },
        { type: 'text-delta', id: '0', delta: text },
        { type: 'text-end', id: '0' },
        { type: 'finish', usage: result.usage, finishReason: result.finishReason },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
    stats: () => ({ calls: { ...calls }, unknownQuestions }),
  };
}

/** How a plan was made wrong by `corruptPlans`. */
export type Corruption = 'anchor' | 'relation';

const hash = (text: string) => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  h ^= h >>> 13;
  h = Math.imul(h, 0x5bd1e995);
  return (h ^ (h >>> 15)) >>> 0;
};

/**
 * Makes `round(noise × n)` of the plans wrong, chosen by a seeded hash of the query id (the same
 * plans for the same seed, whatever the order): half of them (by another bit of the hash) with a
 * wrong anchor — the first anchor replaced by another question's gold anchor, of the same type when
 * there is one — and half with a wrong relation — the first hop of the first path along another
 * edge type of the schema. A plan that cannot be made wrong one way is made wrong the other way.
 */
export function corruptPlans(
  plans: readonly GoldPlan[],
  options: { readonly noise: number; readonly seed?: number; readonly schema: SkbSchema },
): { readonly plans: GoldPlan[]; readonly corrupted: ReadonlyMap<string, Corruption> } {
  if (!(options.noise >= 0 && options.noise <= 1))
    throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `noise must be in [0, 1], got ${options.noise}` });
  const seed = options.seed ?? 1;
  const order = [...plans].sort(
    (a, b) =>
      hash(`${seed}:${a.queryId}`) - hash(`${seed}:${b.queryId}`) || a.queryId.localeCompare(b.queryId),
  );
  const chosen = new Set(order.slice(0, Math.round(options.noise * plans.length)).map((p) => p.queryId));
  const pool = [...new Map(plans.flatMap((p) => p.anchors.map((a) => [a.id, a] as const))).values()].sort(
    (a, b) => a.id.localeCompare(b.id),
  );
  const edgeTypes = [...new Set(options.schema.edgeTypes.map((e) => e.name))].sort();
  const corrupted = new Map<string, Corruption>();

  const wrongAnchor = (plan: GoldPlan, h: number): GoldPlan | undefined => {
    const first = plan.anchors[0];
    if (!first) return undefined;
    const own = new Set(plan.anchors.map((a) => a.id));
    const others = pool.filter((a) => !own.has(a.id));
    const sameType = others.filter((a) => a.type === first.type);
    const from = sameType.length > 0 ? sameType : others;
    if (from.length === 0) return undefined;
    const other = from[h % from.length]!;
    // Named as the store names it: its words belong to another question.
    return { ...plan, anchors: [{ ...other, mention: other.name }, ...plan.anchors.slice(1)] };
  };
  const wrongRelation = (plan: GoldPlan, h: number): GoldPlan | undefined => {
    const path = plan.paths[0];
    const hop = path?.hops[0];
    if (!path || !hop) return undefined;
    const others = edgeTypes.filter((e) => e !== hop.edgeType);
    if (others.length === 0) return undefined;
    const edgeType = others[h % others.length]!;
    return {
      ...plan,
      paths: [{ ...path, hops: [{ ...hop, edgeType }, ...path.hops.slice(1)] }, ...plan.paths.slice(1)],
    };
  };

  const result = plans.map((plan) => {
    if (!chosen.has(plan.queryId)) return plan;
    const h = hash(`${seed}:${plan.queryId}:kind`);
    const tries: [Corruption, typeof wrongAnchor][] =
      h & 1
        ? [
            ['relation', wrongRelation],
            ['anchor', wrongAnchor],
          ]
        : [
            ['anchor', wrongAnchor],
            ['relation', wrongRelation],
          ];
    for (const [kind, make] of tries) {
      const wrong = make(plan, h >>> 1);
      if (wrong) {
        corrupted.set(plan.queryId, kind);
        return wrong;
      }
    }
    return plan;
  });
  return { plans: result, corrupted };
}

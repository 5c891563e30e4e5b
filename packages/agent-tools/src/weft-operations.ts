import type { LanguageModelV4 } from '@ai-sdk/provider';
import { groundedAnswerJson, streamGroundedAnswer } from '@weft/answer';
import { retrieve, WeftError } from '@weft/core';
import { fetchLabels, mentionedIds, renderTrajectory, traceWarnings } from '@weft/explain';
import type {
  Candidate,
  EdgeDirection,
  ExpandDirection,
  GraphStoreV1,
  RetrievalContext,
  RetrieverV1,
  SkbNode,
  SkbPropValue,
  SkbSchema,
} from '@weft/spec';
import { createStackRegistry, type StackCreateOptions, type StackRegistry } from '@weft/stacks/registry';
import type { z } from 'zod';
import {
  type AskInput,
  askInput,
  type GetNodeInput,
  getNodeInput,
  type NeighborsInput,
  neighborsInput,
  type SearchInput,
  searchInput,
} from './tool-schemas.ts';

/** What the tools need of a store: its retrieval context (an `OpenedStore` of `@weft/store` is one). */
export interface WeftToolsStore {
  /** Read on every call, so a store that switches versions (`weft serve` after an update) is followed. */
  readonly context: RetrievalContext;
}

export interface WeftToolsOptions {
  /** The stack `search` and `ask` use when the caller names none (default: the registry's default). */
  readonly stack?: string;
  /** The stacks callers may name (default: the built-in stacks, `createStackRegistry()`). */
  readonly registry?: StackRegistry;
  /**
   * Handed to every stack built; its `languageModel` is also the model of `ask`, which is offered only
   * when there is one.
   */
  readonly createOptions?: StackCreateOptions;
  /**
   * The retriever of a stack name, when the caller already keeps them (`weft serve`'s pool); by default
   * each stack is built on first use and kept for the store's context.
   */
  readonly retriever?: (stack: string) => Promise<RetrieverV1>;
  /**
   * Longest a call may take, in milliseconds: then its work is aborted and it fails with
   * `WEFT_TIMEOUT`, even when a stage ignores the signal (`weft serve` passes its `--timeout-ms`).
   * No limit by default.
   */
  readonly timeoutMs?: number;
}

/** One ranked node of `search`. */
export interface SearchResultRow {
  readonly rank: number;
  readonly id: string;
  readonly name: string | null;
  readonly type: string | null;
  readonly score: number;
  /** One line: the typed path that reached the node, or the text of its document that matched. */
  readonly why: string;
}

export interface SearchOutput {
  readonly query: string;
  readonly stack: string;
  readonly results: readonly SearchResultRow[];
  readonly warnings?: readonly string[];
}

export interface NeighbourRow {
  readonly id: string;
  readonly name: string | null;
  readonly type: string;
}

/** A node's edges of one type followed one way. */
export interface EdgeGroup {
  readonly edgeType: string;
  /** `out`: node —edgeType→ neighbour; `in`: neighbour —edgeType→ node. */
  readonly direction: EdgeDirection;
  /** How many such edges the node has (at least this many when `countCapped`). */
  readonly count: number;
  readonly countCapped?: true;
  /** The first of them. */
  readonly neighbours: readonly NeighbourRow[];
}

export interface GetNodeOutput {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly aliases?: readonly string[];
  readonly props?: Readonly<Record<string, SkbPropValue>>;
  readonly document: string;
  readonly edges: readonly EdgeGroup[];
}

export interface NeighborsOutput {
  readonly id: string;
  readonly edgeType: string | null;
  readonly direction: ExpandDirection;
  readonly neighbours: readonly (NeighbourRow & {
    readonly edgeType: string;
    readonly direction: EdgeDirection;
  })[];
  /** More neighbours exist than are listed. */
  readonly truncated: boolean;
}

export interface AskOutput extends ReturnType<typeof groundedAnswerJson> {
  readonly question: string;
  readonly stack: string;
  /** The ids of the evidence the answer could cite. */
  readonly evidence: readonly string[];
}

export interface CallOptions {
  readonly abortSignal?: AbortSignal;
}

/** Search, get_node, neighbors and ask over one store: what every transport of the tools runs. */
export interface WeftOperations {
  /** The model of `ask`; without one, `ask` is not offered. */
  readonly model: LanguageModelV4 | undefined;
  /** The store's schema (of the version served now). */
  schema(): SkbSchema;
  search(input: SearchInput, options?: CallOptions): Promise<SearchOutput>;
  getNode(input: GetNodeInput, options?: CallOptions): Promise<GetNodeOutput>;
  neighbors(input: NeighborsInput, options?: CallOptions): Promise<NeighborsOutput>;
  ask(input: AskInput, options?: CallOptions): Promise<AskOutput>;
}

const defaultSearchLimit = 10;
const defaultNeighboursLimit = 25;
/** Neighbours `get_node` lists per edge type and direction. */
const neighboursPerGroup = 10;
/** Edges `get_node` counts per group before it says "at least". */
const countCap = 1000;
const maxWhyChars = 200;

const badInput = (message: string) => new WeftError({ code: 'WEFT_BAD_INPUT', message });
const noSuchNode = (id: string) =>
  new WeftError({
    code: 'WEFT_NOT_FOUND',
    message: `no node has the id "${id}" (use an id exactly as search or neighbors returned it)`,
  });

/** Parses with a tool's schema; a bad argument is `WEFT_BAD_INPUT` naming the field. */
function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const text = result.error.issues
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
  throw badInput(`invalid arguments: ${text}`);
}

/** Edge types (and directions) that can touch a node of `type`; `*` in the schema means any type. */
function edgeSides(schema: SkbSchema, type: string): { edgeType: string; direction: EdgeDirection }[] {
  const sides: { edgeType: string; direction: EdgeDirection }[] = [];
  const seen = new Set<string>();
  for (const edge of schema.edgeTypes) {
    for (const [direction, end] of [
      ['out', edge.from],
      ['in', edge.to],
    ] as const) {
      const key = `${edge.name} ${direction}`;
      if ((end === type || end === '*') && !seen.has(key)) {
        seen.add(key);
        sides.push({ edgeType: edge.name, direction });
      }
    }
  }
  return sides;
}

const stopWords = new Set(
  'the a an and or of for to in on at by with from that which who whom what is are was were be it its this these those as into than then'.split(
    ' ',
  ),
);

/** The lower-cased words of a text, a trailing plural `s` dropped. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) =>
    w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w,
  );
}

/** The sentence of `document` that shares the most words with the query, cut to one line. */
export function matchedText(query: string, document: string): string | undefined {
  const terms = new Set(words(query).filter((w) => !stopWords.has(w)));
  if (terms.size === 0 || document.trim() === '') return undefined;
  let best: { sentence: string; hits: number } | undefined;
  for (const sentence of document.split(/(?<=[.!?;])\s+|\n+/)) {
    const hits = new Set(words(sentence).filter((w) => terms.has(w))).size;
    if (hits > 0 && (!best || hits > best.hits)) best = { sentence: sentence.trim(), hits };
  }
  if (!best) return undefined;
  const line = best.sentence.replace(/\s+/g, ' ');
  return line.length > maxWhyChars ? `${line.slice(0, maxWhyChars - 1)}…` : line;
}

function why(
  candidate: Candidate,
  query: string,
  node: SkbNode | undefined,
  labels: Awaited<ReturnType<typeof fetchLabels>>,
): string {
  const trajectory = candidate.trajectories[0];
  if (trajectory && trajectory.hops.length > 1) return `path: ${renderTrajectory(trajectory, labels)}`;
  const text = node ? matchedText(query, `${node.name}. ${node.text}`) : undefined;
  if (text) return `text: “${text}”`;
  if (trajectory) return `reached: ${renderTrajectory(trajectory, labels)}`;
  const scores = Object.entries(candidate.scores)
    .map(([name, value]) => `${name} ${Number.isInteger(value) ? value : value.toFixed(3)}`)
    .join(', ');
  return scores ? `scores: ${scores}` : 'ranked by the stack (no path or matching text recorded)';
}

/**
 * The operations behind Weft's agent tools over one store. Arguments are checked with the tools'
 * zod schemas (a bad one, an unknown stack or edge type is `WEFT_BAD_INPUT`; an unknown node id
 * `WEFT_NOT_FOUND`), so every transport reports the same errors.
 */
export function createWeftOperations(store: WeftToolsStore, options: WeftToolsOptions = {}): WeftOperations {
  const registry = options.registry ?? createStackRegistry();
  const createOptions = options.createOptions ?? {};
  const model = createOptions.languageModel;
  const defaultStack = options.stack ?? registry.defaultName;
  const knownStack = (stack: string): string => {
    if (registry.has(stack)) return stack;
    const names = registry.list().map((e) => e.name);
    throw badInput(`unknown stack "${stack}" (stacks: ${names.join(', ')})`);
  };
  knownStack(defaultStack);
  const built = new Map<string, Promise<RetrieverV1>>();
  let builtFor: RetrievalContext | undefined;
  const retrieverOf = (name: string | undefined): { stack: string; retriever: Promise<RetrieverV1> } => {
    const stack = knownStack(name ?? defaultStack);
    if (options.retriever) return { stack, retriever: options.retriever(stack) };
    if (store.context !== builtFor) {
      built.clear();
      builtFor = store.context;
    }
    let retriever = built.get(stack);
    if (!retriever) {
      retriever = registry.create(stack, store, createOptions);
      built.set(stack, retriever);
      retriever.catch(() => built.delete(stack));
    }
    return { stack, retriever };
  };
  const graph = (): GraphStoreV1 => store.context.graph;
  /** Runs one call under the caller's signal and `timeoutMs`; the work sees one signal for both. */
  const limited = async <T>(call: CallOptions | undefined, work: (call: CallOptions) => Promise<T>) => {
    const timeoutMs = options.timeoutMs;
    if (timeoutMs === undefined) return work(call ?? {});
    const timer = AbortSignal.timeout(timeoutMs);
    const signal = call?.abortSignal ? AbortSignal.any([call.abortSignal, timer]) : timer;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () =>
        reject(
          timer.aborted
            ? new WeftError({
                code: 'WEFT_TIMEOUT',
                message: `the call ran past the ${timeoutMs} ms limit and was aborted`,
              })
            : new WeftError({ code: 'WEFT_ABORTED', message: 'the call was cancelled' }),
        );
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => {});
    try {
      return await Promise.race([work({ abortSignal: signal }), aborted]);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  };
  const signalOf = (call?: CallOptions) => (call?.abortSignal ? { abortSignal: call.abortSignal } : {});
  const nodeOf = async (id: string, call?: CallOptions): Promise<SkbNode> => {
    const [node] = await graph().doGetNodes([id], signalOf(call));
    if (!node) throw noSuchNode(id);
    return node;
  };
  const namesOf = async (ids: readonly string[], call?: CallOptions) => {
    const unique = [...new Set(ids)];
    const nodes = unique.length ? await graph().doGetNodes(unique, signalOf(call)) : [];
    return new Map(nodes.flatMap((n) => (n ? [[n.id, n.name] as const] : [])));
  };

  return {
    model,
    schema: () => store.context.schema,

    search: (raw, outer) =>
      limited(outer, async (call) => {
        const input = parse(searchInput, raw);
        const { stack, retriever } = retrieverOf(input.stack);
        const result = await retrieve(await retriever, {
          query: input.query,
          limit: input.limit ?? defaultSearchLimit,
          ...signalOf(call),
        });
        const labels = await fetchLabels(graph(), mentionedIds(result, 1));
        const ids = result.ranking.map((c) => c.id);
        const nodes = ids.length ? await graph().doGetNodes(ids, signalOf(call)) : [];
        const warnings = traceWarnings(result);
        return {
          query: input.query,
          stack,
          results: result.ranking.map((candidate, i) => ({
            rank: i + 1,
            id: candidate.id,
            name: labels.get(candidate.id)?.name ?? null,
            type: candidate.type ?? labels.get(candidate.id)?.type ?? null,
            score: candidate.score,
            why: why(candidate, input.query, nodes[i], labels),
          })),
          ...(warnings.length ? { warnings } : {}),
        };
      }),

    getNode: (raw, outer) =>
      limited(outer, async (call) => {
        const input = parse(getNodeInput, raw);
        const node = await nodeOf(input.id, call);
        const groups = await Promise.all(
          edgeSides(store.context.schema, node.type).map(async ({ edgeType, direction }) => ({
            edgeType,
            direction,
            found: await graph().doNeighbors({
              seeds: [node.id],
              edgeTypes: [edgeType],
              direction,
              limitPerSeed: countCap + 1,
              ...signalOf(call),
            }),
          })),
        );
        const present = groups.filter((g) => g.found.length > 0);
        const names = await namesOf(
          present.flatMap((g) => g.found.slice(0, neighboursPerGroup).map((n) => n.node)),
          call,
        );
        return {
          id: node.id,
          name: node.name,
          type: node.type,
          ...(node.aliases?.length ? { aliases: node.aliases } : {}),
          ...(node.props && Object.keys(node.props).length ? { props: node.props } : {}),
          document: node.text,
          edges: present.map((g) => ({
            edgeType: g.edgeType,
            direction: g.direction,
            count: Math.min(g.found.length, countCap),
            ...(g.found.length > countCap ? { countCapped: true as const } : {}),
            neighbours: g.found
              .slice(0, neighboursPerGroup)
              .map((n) => ({ id: n.node, name: names.get(n.node) ?? null, type: n.nodeType })),
          })),
        };
      }),

    neighbors: (raw, outer) =>
      limited(outer, async (call) => {
        const input = parse(neighborsInput, raw);
        const edgeTypes = store.context.schema.edgeTypes.map((e) => e.name);
        if (input.edgeType !== undefined && !edgeTypes.includes(input.edgeType))
          throw badInput(
            `unknown edge type "${input.edgeType}" (edge types: ${[...new Set(edgeTypes)].join(', ')})`,
          );
        await nodeOf(input.id, call);
        const direction = input.direction ?? 'both';
        const limit = input.limit ?? defaultNeighboursLimit;
        const found = await graph().doNeighbors({
          seeds: [input.id],
          ...(input.edgeType ? { edgeTypes: [input.edgeType] } : {}),
          direction,
          limitPerSeed: limit + 1,
          ...signalOf(call),
        });
        const shown = found.slice(0, limit);
        const names = await namesOf(
          shown.map((n) => n.node),
          call,
        );
        return {
          id: input.id,
          edgeType: input.edgeType ?? null,
          direction,
          neighbours: shown.map((n) => ({
            id: n.node,
            name: names.get(n.node) ?? null,
            type: n.nodeType,
            edgeType: n.edgeType,
            direction: n.direction,
          })),
          truncated: found.length > limit,
        };
      }),

    ask: (raw, outer) =>
      limited(outer, async (call) => {
        const input = parse(askInput, raw);
        if (!model)
          throw new WeftError({
            code: 'WEFT_UNSUPPORTED',
            message: 'ask needs a language model, and none is configured (weft mcp --model SPEC)',
          });
        const { stack, retriever } = retrieverOf(input.stack);
        const answer = await streamGroundedAnswer({
          question: input.question,
          retriever: await retriever,
          graph: graph(),
          model,
          ...signalOf(call),
        });
        const done = await answer.finished();
        if (done.status === 'failed')
          throw new WeftError({
            code: 'WEFT_STAGE_FAILED',
            message: `the model failed to answer: ${done.error ?? 'unknown error'}`,
          });
        return {
          question: input.question,
          stack,
          ...groundedAnswerJson(done),
          evidence: [...answer.evidence.ids],
        };
      }),
  };
}

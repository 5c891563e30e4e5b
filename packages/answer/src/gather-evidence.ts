import { relationLabel } from '@weft/kit';
import type { Candidate, GraphStoreV1, RetrievalResult, Trajectory } from '@weft/spec';

/** One node of the evidence, as the answer may cite it. */
export interface EvidenceNode {
  readonly id: string;
  readonly name: string;
  readonly type?: string;
  /** Its document, cut to the per-node budget. */
  readonly text: string;
  /** 1-based rank in the retrieval; absent for nodes that only appear on paths. */
  readonly rank?: number;
}

/** What an answer may rest on, verbalised for a prompt, with every id it names. */
export interface Evidence {
  readonly question: string;
  /** The top nodes, best first (those that fitted the budget). */
  readonly nodes: readonly EvidenceNode[];
  /** The paths that found them, one line each: `[a] A —relation→ [b] B`. */
  readonly paths: readonly string[];
  /** MixRAG's subgraph (the prize-collecting Steiner tree), one edge a line; empty for other stacks. */
  readonly subgraph: readonly string[];
  /** The whole evidence as the prompt shows it. */
  readonly text: string;
  /** Every node id the text names: the only ids an answer may cite. */
  readonly ids: ReadonlySet<string>;
  /** Estimated tokens of `text`. */
  readonly tokens: number;
  /** Whether nodes, paths or subgraph edges were left out to stay within the budget. */
  readonly truncated: boolean;
}

export interface GatherEvidenceOptions {
  /** Token budget of the whole evidence (default 1,500). */
  readonly maxTokens?: number;
  /** Top nodes considered (default 10). */
  readonly maxNodes?: number;
  /** Tokens of each node's document (default 80). */
  readonly tokensPerNode?: number;
  /** Paths per node (default 2). */
  readonly pathsPerNode?: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * Tokens a text costs, by the rule `@weft/llm`'s `estimateTokens` uses (4/3 per word or 1 per 4
 * characters, whichever is more), so budgets agree across Weft without a tokenizer.
 */
export function estimateTokens(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.ceil(Math.max((words * 4) / 3, text.length / 4));
}

function cut(text: string, maxTokens: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (estimateTokens(flat) <= maxTokens) return flat;
  const words = flat.split(' ');
  let keep = Math.max(1, Math.floor((maxTokens * 3) / 4));
  while (keep > 1 && estimateTokens(`${words.slice(0, keep).join(' ')} …`) > maxTokens) keep--;
  return `${words.slice(0, keep).join(' ')} …`;
}

/** Edges of a trajectory as `[id] name —type→ [id] name` (or `←type—` against the stored direction). */
function pathLine(trajectory: Trajectory, names: ReadonlyMap<string, string>): string | undefined {
  if (trajectory.hops.length < 2) return undefined;
  const label = (id: string) => `[${id}] ${names.get(id) ?? id}`;
  let line = label(trajectory.hops[0]!.node);
  for (const hop of trajectory.hops.slice(1)) {
    const relation = hop.edgeType ?? 'related to';
    line += ` ${relationLabel(relation, hop.direction ?? 'out')} `;
    line += label(hop.node);
  }
  return line;
}

/** The edges of MixRAG's tree: the structural steps of the trajectories of candidates the subgraph expert found. */
function subgraphEdges(
  ranking: readonly Candidate[],
): { from: string; to: string; edgeType: string; direction: 'in' | 'out' }[] {
  const seen = new Set<string>();
  const out: { from: string; to: string; edgeType: string; direction: 'in' | 'out' }[] = [];
  for (const candidate of ranking) {
    if (!((candidate.scores.expertSubgraph ?? 0) > 0)) continue;
    for (const trajectory of candidate.trajectories) {
      for (let i = 1; i < trajectory.hops.length; i++) {
        const hop = trajectory.hops[i]!;
        if (hop.via !== 'structure' || !hop.edgeType) continue;
        const from = trajectory.hops[i - 1]!.node;
        const [head, tail] = hop.direction === 'in' ? [hop.node, from] : [from, hop.node];
        const key = `${head}\u0000${hop.edgeType}\u0000${tail}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ from: head, to: tail, edgeType: hop.edgeType, direction: 'out' });
      }
    }
  }
  return out;
}

/**
 * The evidence of a retrieval, for a prompt: the top nodes with their documents, the paths that
 * found them, and MixRAG's subgraph when the stack built one, each with node ids in brackets, added
 * in that order until the token budget is spent. Names and documents come from the graph in one call.
 */
export async function gatherEvidence(
  question: string,
  result: RetrievalResult,
  graph: GraphStoreV1,
  options: GatherEvidenceOptions = {},
): Promise<Evidence> {
  const maxTokens = options.maxTokens ?? 1500;
  const top = result.ranking.slice(0, options.maxNodes ?? 10);
  const perNodePaths = options.pathsPerNode ?? 2;
  const tree = subgraphEdges(result.ranking);
  const ids = new Set<string>(top.map((c) => c.id));
  for (const candidate of top)
    for (const trajectory of candidate.trajectories.slice(0, perNodePaths))
      for (const hop of trajectory.hops) ids.add(hop.node);
  for (const edge of tree) {
    ids.add(edge.from);
    ids.add(edge.to);
  }
  const list = [...ids];
  const found =
    list.length > 0
      ? await graph.doGetNodes(list, options.abortSignal ? { abortSignal: options.abortSignal } : {})
      : [];
  const documents = new Map(found.flatMap((node, i) => (node ? [[list[i]!, node] as const] : [])));
  const names = new Map([...documents].map(([id, node]) => [id, node.name]));

  let used = 0;
  let truncated = false;
  const cited = new Set<string>();
  const fits = (line: string) => {
    const cost = estimateTokens(line) + 1;
    if (used + cost > maxTokens) {
      truncated = true;
      return false;
    }
    used += cost;
    for (const match of line.matchAll(/\[([^\]\s]+)\]/g)) cited.add(match[1]!);
    return true;
  };
  const header = `Question: ${question}\n\nNodes (best first; cite them by the id in brackets):`;
  used += estimateTokens(header);
  const nodes: EvidenceNode[] = [];
  const nodeLines: string[] = [];
  for (const [i, candidate] of top.entries()) {
    const node = documents.get(candidate.id);
    const name = node?.name ?? candidate.id;
    const type = node?.type ?? candidate.type;
    const text = cut(node?.text ?? '', options.tokensPerNode ?? 80);
    const line = `[${candidate.id}] ${name}${type ? ` (${type})` : ''}${text ? `: ${text}` : ''}`;
    if (!fits(line)) break;
    nodeLines.push(line);
    nodes.push({ id: candidate.id, name, ...(type !== undefined ? { type } : {}), text, rank: i + 1 });
  }
  const paths: string[] = [];
  for (const candidate of top.slice(0, nodes.length)) {
    for (const trajectory of candidate.trajectories.slice(0, perNodePaths)) {
      const line = pathLine(trajectory, names);
      if (line && !paths.includes(line) && fits(line)) paths.push(line);
    }
  }
  const subgraph: string[] = [];
  for (const edge of tree) {
    const line = `[${edge.from}] ${names.get(edge.from) ?? edge.from} ${relationLabel(edge.edgeType, 'out')} [${edge.to}] ${names.get(edge.to) ?? edge.to}`;
    if (fits(line)) subgraph.push(line);
  }
  const text = [
    header,
    ...nodeLines,
    ...(paths.length > 0 ? ['', 'Paths that found them:', ...paths] : []),
    ...(subgraph.length > 0
      ? ['', 'Subgraph (a prize-collecting Steiner tree over the matches):', ...subgraph]
      : []),
  ].join('\n');
  return { question, nodes, paths, subgraph, text, ids: cited, tokens: estimateTokens(text), truncated };
}

import { edgeTypeWords } from '@weft/kit';
import type { GoldPlan } from './gold-plans.ts';

/**
 * The oracle's answers to the LLM stages that are not planners, each read off the gold plan and the
 * prompt: KAR's expansion, MixRAG's expert weights, HybGRAG's critic (validator and commentor) and
 * refined route, the listwise, pointwise and pairwise rerankers. `wrong` answers as a model that
 * gets the stage wrong would (`noisy-model`).
 */

/** A JSON string literal at the start of `text` (the prompts show KB text so), parsed. */
function literalAt(text: string): string | undefined {
  const match = /^"(?:[^"\\\n]|\\.)*"/.exec(text);
  if (!match) return undefined;
  try {
    return JSON.parse(match[0]) as string;
  } catch {
    return undefined;
  }
}

const fold = (text: string) => text.trim().toLowerCase();

/** The gold answers' names of a plan, folded (a name shared by a non-answer counts as the answer's). */
export function answerNames(plan: GoldPlan): ReadonlySet<string> {
  return new Set((plan.answers ?? []).map((a) => fold(a.name)));
}

/**
 * Whether a candidate as a reranker shows it (`name: document`, or the name alone, cut) is a gold
 * answer: its text is an answer's name, or starts with one followed by `:`.
 */
export function isGoldCandidate(shown: string, names: ReadonlySet<string>): boolean {
  const text = fold(shown);
  if (names.has(text)) return true;
  for (const name of names) if (text.startsWith(`${name}:`)) return true;
  return false;
}

/** The numbered candidates of a listwise prompt (`[n] "<text>"`), in the prompt's order. */
export function listedCandidates(prompt: string): { readonly n: number; readonly text: string }[] {
  const out: { n: number; text: string }[] = [];
  for (const match of prompt.matchAll(/^\[(\d+)\] (.*)$/gm)) {
    const text = literalAt(match[2]!);
    out.push({ n: Number(match[1]), text: text ?? match[2]! });
  }
  return out;
}

/**
 * The listwise reranker's answer: the gold answers first (in the given order), then the rest in the
 * given order; `keep` returns the given order, and `wrong` puts the gold answers last.
 */
export function rankListAnswer(
  prompt: string,
  plan: GoldPlan | undefined,
  mode: { readonly rerank: 'gold' | 'keep'; readonly wrong: boolean },
): string {
  const shown = listedCandidates(prompt).sort((a, b) => a.n - b.n);
  const numbers = shown.length > 0 ? shown.map((c) => c.n) : [1];
  if (mode.rerank === 'keep' || !plan) return JSON.stringify({ ranking: numbers });
  const names = answerNames(plan);
  const gold = shown.filter((c) => isGoldCandidate(c.text, names)).map((c) => c.n);
  const rest = numbers.filter((n) => !gold.includes(n));
  return JSON.stringify({ ranking: mode.wrong ? [...rest, ...gold] : [...gold, ...rest] });
}

/** The pointwise judge: 10 for a gold answer, 0 for the rest (`wrong`: the reverse; `keep`: 5 for all). */
export function judgeAnswer(
  prompt: string,
  plan: GoldPlan | undefined,
  mode: { readonly rerank: 'gold' | 'keep'; readonly wrong: boolean },
): string {
  const shown = /\nCandidate: (.*)/.exec(prompt)?.[1];
  if (mode.rerank === 'keep' || !plan || shown === undefined)
    return JSON.stringify({ score: 5, reason: 'no opinion' });
  const gold = isGoldCandidate(literalAt(shown) ?? shown, answerNames(plan));
  return JSON.stringify({
    score: gold !== mode.wrong ? 10 : 0,
    reason: gold ? 'a gold answer' : 'not a gold answer',
  });
}

/** The pairwise judge: the gold answer of the two, a tie when both or neither are (`wrong`: the other one). */
export function compareAnswer(
  prompt: string,
  plan: GoldPlan | undefined,
  mode: { readonly rerank: 'gold' | 'keep'; readonly wrong: boolean },
): string {
  const a = /\nCandidate A: (.*)/.exec(prompt)?.[1];
  const b = /\nCandidate B: (.*)/.exec(prompt)?.[1];
  if (mode.rerank === 'keep' || !plan || a === undefined || b === undefined)
    return JSON.stringify({ better: 'tie', reason: 'no opinion' });
  const names = answerNames(plan);
  const goldA = isGoldCandidate(literalAt(a) ?? a, names);
  const goldB = isGoldCandidate(literalAt(b) ?? b, names);
  if (goldA === goldB) return JSON.stringify({ better: 'tie', reason: 'both or neither are gold answers' });
  const better = goldA !== mode.wrong ? 'A' : 'B';
  return JSON.stringify({ better, reason: 'the gold answer' });
}

/** The names of the top results a validator or commentor prompt shows (`[n] "<name>" (type) via …`). */
export function shownResults(prompt: string): string[] {
  const out: string[] = [];
  for (const match of prompt.matchAll(/^\[(\d+)\] ("(?:[^"\\\n]|\\.)*") \(/gm)) {
    const name = literalAt(match[2]!);
    if (name !== undefined) out.push(name);
  }
  return out;
}

/**
 * Whether a validator prompt's results came by the gold route: a result found from a gold anchor
 * (`via "<anchor>" —<edge>→ …` or `←<edge>—`) along the first hop of one of its gold paths.
 */
export function reachedByGoldRoute(prompt: string, plan: GoldPlan): boolean {
  const first = new Map<string, Set<string>>();
  for (const path of plan.paths) {
    const anchor = plan.anchors[path.anchor];
    const hop = path.hops[0];
    if (!anchor || !hop) continue;
    const key = fold(anchor.name);
    first.set(key, (first.get(key) ?? new Set()).add(hop.edgeType));
  }
  for (const match of prompt.matchAll(/^\[\d+\] .*? via (".*)$/gm)) {
    const via = match[1]!;
    const anchor = literalAt(via);
    if (anchor === undefined) continue;
    const edge = /^"(?:[^"\\\n]|\\.)*" (?:—|←)([^\s—→←]+)(?:→|—)/.exec(via)?.[1];
    if (edge !== undefined && first.get(fold(anchor))?.has(edge)) return true;
  }
  return false;
}

/**
 * HybGRAG's validator: accept when the results it is shown (HybGRAG's top 3) reach a gold answer,
 * or came by the gold route (the route is right: what is left is ranking, which no other action
 * of the router fixes, and rejecting it only spends calls), else reject (`wrong`: the reverse
 * verdict).
 */
export function validateAnswer(prompt: string, plan: GoldPlan | undefined, wrong: boolean): string {
  if (!plan) return JSON.stringify({ accept: true, reason: 'no gold answers to check against' });
  const names = answerNames(plan);
  const reached = shownResults(prompt).some((name) => names.has(fold(name)));
  const right = reached || reachedByGoldRoute(prompt, plan);
  return JSON.stringify({
    accept: right !== wrong,
    reason: reached
      ? 'the results reach a gold answer'
      : right
        ? 'the results came by the right route'
        : 'no result shown is a gold answer',
  });
}

/** The action line of a commentor prompt: `text: …` or `<module>: <mention> [<id>] <path> ∩ …`. */
function actionOf(prompt: string): string {
  return /\nAction taken: (.*)/.exec(prompt)?.[1] ?? '';
}

/** The node ids an action (`describeAction`, JSON-quoted) uses: the `[<id>]` after each mention. */
export function actionIds(action: string): string[] {
  let text = action;
  const literal = literalAt(action);
  if (literal !== undefined) text = literal;
  return [...text.matchAll(/ \[([^\]\s]+)\]/g)].map((m) => m[1]!);
}

/** Whether an action (JSON-quoted or not) is the text module. */
const isTextAction = (action: string) => /^"?text:/.test(action);

/**
 * HybGRAG's commentor, after a rejection: what the gold plan says the action got wrong — the text
 * module where the gold plan has anchors (`wrong-module`), an entity that is no gold anchor
 * (`incorrect-entity`, by its node id), a gold anchor left out (`missing-entity`, by the question's
 * words for it), the graph where the gold plan has no anchor (`no-entity`), and, when the action
 * was the gold one, the text module (`wrong-module`: the other module is what is left to try).
 * `wrong` points elsewhere: at the module when an entity was wrong, at a gold anchor when the
 * module was.
 */
export function commentAnswer(prompt: string, plan: GoldPlan | undefined, wrong: boolean): string {
  const action = actionOf(prompt);
  const feedback = (kind: string, message: string, entity?: string) =>
    JSON.stringify({ feedback: [{ kind, message, ...(entity ? { entity } : {}) }] });
  if (!plan) return feedback('wrong-module', 'no opinion');
  const gold = new Set(plan.anchors.map((a) => a.id));
  const text = isTextAction(action);
  if (plan.anchors.length === 0)
    return text || wrong
      ? feedback('wrong-module', 'use the graph')
      : feedback('no-entity', 'the question names no entity the graph can use');
  if (text)
    return wrong
      ? feedback('no-entity', 'the question names no entity the graph can use')
      : feedback('wrong-module', 'use the graph: the question names entities');
  const used = actionIds(action);
  const foreign = used.find((id) => !gold.has(id));
  if (foreign !== undefined)
    return wrong
      ? feedback('wrong-module', 'use text search')
      : feedback('incorrect-entity', `${foreign} is not the entity the question means`, foreign);
  const missing = plan.anchors.find((a) => !used.includes(a.id));
  if (missing)
    return wrong
      ? feedback('wrong-module', 'use text search')
      : feedback('missing-entity', `use ${missing.mention}`, missing.mention);
  return wrong
    ? feedback('incorrect-entity', `${plan.anchors[0]!.id} is not the entity`, plan.anchors[0]!.id)
    : feedback('wrong-module', 'the entities are right: try text search');
}

/**
 * Whether the earlier rounds of a router prompt (`Earlier rounds …`, one `- round N: <action>;
 * critic: …` line each) already tried the gold route (every gold anchor's id) or the text module.
 */
export function triedRoutes(
  prompt: string,
  plan: GoldPlan,
): { readonly gold: boolean; readonly text: boolean } {
  const at = prompt.indexOf('\nEarlier rounds');
  if (at < 0) return { gold: false, text: false };
  let gold = false;
  let text = false;
  for (const match of prompt.slice(at).matchAll(/^- round \d+: (.*?); critic: /gm)) {
    const action = match[1]!;
    if (isTextAction(action)) text = true;
    else {
      const ids = new Set(actionIds(action));
      if (plan.anchors.length > 0 && plan.anchors.every((a) => ids.has(a.id))) gold = true;
    }
  }
  return { gold, text };
}

/**
 * A document triple of KAR's prompt (`- "<head>" ("<doc>") —<relation>→ "<tail>" ("<doc>")`): the
 * names and the relation.
 */
export function promptTriples(prompt: string): { head: string; relation: string; tail: string }[] {
  const out: { head: string; relation: string; tail: string }[] = [];
  for (const line of prompt.split('\n')) {
    if (!line.startsWith('- "')) continue;
    const head = literalAt(line.slice(2));
    const arrow = /\)? —(.+?)→ "/.exec(line);
    if (head === undefined || !arrow) continue;
    const tail = literalAt(line.slice(arrow.index + arrow[0].length - 1));
    if (tail === undefined) continue;
    out.push({ head, relation: arrow[1]!, tail });
  }
  return out;
}

/**
 * KAR's expansion from a gold plan, written from the facts the prompt shows, as a model that knows
 * the plan writes it: of the facts that follow the gold plan (a gold anchor with the relation of
 * its path's first hop), the nodes at their other end that are gold answers — the entities that
 * fit — else all of them; with no such fact, the question itself (nothing to add). The anchors,
 * their relation and the answer type are not written out: on the val splits such a passage
 * ("move learns Snorlax") lowered the `kar` stack's Hit@1 (Pokémon 47.4 → 36.8, Debian 70 → 50):
 * its words match the anchor's own document and its namesakes', not the answers'.
 */
export function expandAnswer(prompt: string, plan: GoldPlan): string {
  const anchors = new Map(plan.anchors.map((a) => [fold(a.name), a]));
  const relations = new Set(
    plan.paths.flatMap((p) => (p.hops[0] ? [edgeTypeWords(p.hops[0].edgeType)] : [])),
  );
  const fitting: string[] = [];
  for (const triple of promptTriples(prompt)) {
    if (!relations.has(edgeTypeWords(triple.relation))) continue;
    const other = anchors.has(fold(triple.head))
      ? triple.tail
      : anchors.has(fold(triple.tail))
        ? triple.head
        : undefined;
    if (other !== undefined && !fitting.includes(other) && !anchors.has(fold(other))) fitting.push(other);
  }
  if (fitting.length === 0) return JSON.stringify({ expansions: [plan.question] });
  const names = answerNames(plan);
  const answers = fitting.filter((name) => names.has(fold(name)));
  return JSON.stringify({ expansions: [(answers.length > 0 ? answers : fitting).join(', ')] });
}

/**
 * MixRAG's expert weights from the gold plan: the text expert (`entity`) alone for a plan without
 * a path; for a path, half on the text expert (the question's textual requirement) and half on
 * structure — mostly the relation expert for one hop from one anchor, mostly the subgraph expert
 * for several anchors or longer paths (0.35 / 0.15). Chosen on the val splits among text shares of
 * 0.3, 0.5, 0.7 and 1 and structure splits of 0.7 and 1; none beat the learned gate there.
 * `wrong` weighs the other kind: structure where the plan is text, text where it is structure.
 */
export function expertWeightsAnswer(plan: GoldPlan, wrong: boolean): string {
  const structural = plan.paths.length > 0;
  const multi =
    new Set(plan.paths.map((p) => p.anchor)).size > 1 || plan.paths.some((p) => p.hops.length > 1);
  const text = { entity: 1, relation: 0, subgraph: 0 };
  const structure = multi
    ? { entity: 0.5, relation: 0.15, subgraph: 0.35 }
    : { entity: 0.5, relation: 0.35, subgraph: 0.15 };
  return JSON.stringify(structural !== wrong ? structure : text);
}

import { type GroundedMention, groundQuestion, mentionFor } from '@weft/grounding';
import { schemaNames } from '@weft/llm';
import type {
  Anchor,
  Plan,
  PlanTerm,
  PlanTriplet,
  PlanVariable,
  RetrievalContext,
  TypeScore,
} from '@weft/spec';
import type { CypherLiteral, ParsedCypher } from './parse-cypher.ts';

/** A parsed query made into a plan for the store, or why it could not be; `notes` say what was repaired or left out. */
export interface GroundedCypher {
  readonly plan?: Plan;
  readonly notes: readonly string[];
  readonly reason?: string;
}

/** Properties that name a node, as models write them. */
const nameProperties = new Set(['name', 'title', 'label', 'alias', 'aliases']);
/** Properties whose text conditions describe the node's document. */
const textOperators = new Set(['contains', 'starts-with', 'ends-with', 'regex']);

const squash = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[“”"'‘’`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** A regular expression's words, for a text restriction (`(?i).*wild.*` → `wild`). */
const regexWords = (pattern: string) =>
  pattern
    .replace(/\(\?[a-z]+\)/g, ' ')
    .replace(/[\\^$.*+?()[\]{}|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Maps a parsed Cypher query onto the store (FocusedRetriever's constraints): labels and
 * relationship types onto the schema's names, every relationship's direction checked against the
 * edge signatures (turned around when only the other way fits; undirected ones take the way the
 * schema allows), named nodes (`{name: …}` or `WHERE n.name = …`; `id` for ids) linked through the
 * name index as anchors, text conditions (CONTAINS, STARTS/ENDS WITH, `=~`) as restrictions, and
 * the first returned variable as the target. A name the query does not say is accepted only when the
 * index knows it exactly. What cannot be used is left out with a note; a query that constrains
 * nothing, or returns a named node, is no plan (`reason`).
 */
export async function groundCypher(
  parsed: ParsedCypher,
  options: {
    readonly query: string;
    readonly context: RetrievalContext;
    readonly offline: Plan;
    readonly cypher: string;
  },
): Promise<GroundedCypher> {
  const { query, context, offline } = options;
  const schema = context.schema;
  const names = schemaNames(schema);
  const notes: string[] = parsed.ignored.map((part) => `${part} not used`);
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};

  // Node types of every variable.
  const types = new Map<string, string | undefined>();
  for (const node of parsed.nodes) {
    const grounded: string[] = [];
    for (const label of node.labels) {
      const found = names.nodeType(label);
      if (!found) notes.push(`label "${label}" is not a node type of the schema; ignored`);
      else {
        if (found.repaired) notes.push(`label "${label}" read as "${found.name}"`);
        if (!grounded.includes(found.name)) grounded.push(found.name);
      }
    }
    if (grounded.length > 1) notes.push(`${node.variable} has several labels; "${grounded[0]}" used`);
    types.set(node.variable, grounded[0]);
  }

  // Named nodes: the constants of FocusedRetriever.
  const named = new Map<string, { name?: string; id?: string }>();
  const restrictions = new Map<string, string[]>();
  const addRestriction = (variable: string, text: string) => {
    if (!text.trim()) return;
    const list = restrictions.get(variable) ?? [];
    if (!list.includes(text)) list.push(text);
    restrictions.set(variable, list);
  };
  const nameOf = (value: CypherLiteral): string | undefined =>
    typeof value === 'string'
      ? value
      : Array.isArray(value) && typeof value[0] === 'string'
        ? value[0]
        : undefined;
  for (const node of parsed.nodes) {
    for (const [property, value] of Object.entries(node.properties)) {
      const text = nameOf(value);
      if (text === undefined) continue;
      if (property === 'id') named.set(node.variable, { id: text });
      else if (nameProperties.has(property)) named.set(node.variable, { name: text });
      else addRestriction(node.variable, text);
    }
  }
  for (const condition of parsed.conditions) {
    if (condition.negated) {
      notes.push(`NOT ${condition.variable}.${condition.property} not used`);
      continue;
    }
    const text = nameOf(condition.value);
    if (text === undefined) {
      notes.push(`${condition.variable}.${condition.property} (${condition.operator}) not used: not text`);
      continue;
    }
    if ((condition.operator === 'equals' || condition.operator === 'in') && condition.property === 'id')
      named.set(condition.variable, { id: text });
    else if (
      (condition.operator === 'equals' || condition.operator === 'in') &&
      nameProperties.has(condition.property)
    )
      named.set(condition.variable, { name: text });
    else if (textOperators.has(condition.operator) || condition.operator === 'equals')
      addRestriction(condition.variable, condition.operator === 'regex' ? regexWords(text) : text);
  }

  // Link the names: the query's own spans first, then the name index (exactly, then fuzzily).
  const anchors: Anchor[] = [];
  const anchorOf = new Map<string, number>();
  if (named.size > 0) {
    const mentions = [...named.values()].some((n) => n.name)
      ? (await groundQuestion(query, context)).mentions
      : [];
    const ids = [...named].filter(([, n]) => n.id).map(([variable, n]) => ({ variable, id: n.id! }));
    const found = ids.length
      ? await context.graph.doGetNodes(
          ids.map((i) => i.id),
          signal,
        )
      : [];
    ids.forEach(({ variable, id }, i) => {
      const node = found[i];
      if (!node) notes.push(`node id "${id}" is not in the store`);
      else {
        anchorOf.set(variable, anchors.length);
        anchors.push({
          mention: node.name,
          candidates: [{ id: node.id, type: node.type, score: 1 }],
          confidence: 1,
        });
      }
    });
    const byName = [...named].filter(([, n]) => n.name).map(([variable, n]) => ({ variable, name: n.name! }));
    const pending: typeof byName = [];
    const spanAnchor = (span: GroundedMention, type: string | undefined): Anchor => {
      const nodes =
        type && span.candidates.some((n) => n.type === type)
          ? span.candidates.filter((n) => n.type === type)
          : span.candidates;
      return {
        mention: span.text,
        candidates: nodes
          .slice(0, 10)
          .map((n) => ({ id: n.id, type: n.type, score: n.probability / span.probability })),
        confidence: span.probability,
      };
    };
    // A span whose candidates hold no node of the type the model declared: the name is looked up
    // among nodes of that type first (below); the span stays the fallback.
    const untyped = new Map<string, GroundedMention>();
    for (const item of byName) {
      const span = mentionFor(mentions, item.name);
      const type = types.get(item.variable);
      if (span?.candidates.length && (!type || span.candidates.some((n) => n.type === type))) {
        anchorOf.set(item.variable, anchors.length);
        anchors.push(spanAnchor(span, type));
      } else {
        if (span?.candidates.length) untyped.set(item.variable, span);
        pending.push(item);
      }
    }
    if (pending.length > 0) {
      const lookup = (fuzzy: boolean, items: typeof pending) =>
        context.graph.doLookup(
          items.map((i) => i.name),
          { fuzzy, limit: 10, ...signal },
        );
      const exact = await lookup(false, pending);
      const inQuery = (name: string) => squash(query).includes(squash(name));
      const fuzzyItems = pending.filter((item, i) => (exact[i] ?? []).length === 0 && inQuery(item.name));
      const fuzzy = fuzzyItems.length ? await lookup(true, fuzzyItems) : [];
      pending.forEach((item, i) => {
        const matches = (exact[i]?.length ? exact[i] : fuzzy[fuzzyItems.indexOf(item)]) ?? [];
        const type = types.get(item.variable);
        const span = untyped.get(item.variable);
        if (span && !matches.some((m) => m.type === type)) {
          anchorOf.set(item.variable, anchors.length);
          anchors.push(spanAnchor(span, type));
          return;
        }
        if (matches.length === 0) {
          notes.push(
            inQuery(item.name)
              ? `"${item.name}" names no node of the store; its words restrict ${item.variable} instead`
              : `"${item.name}" is not in the query and names no node exactly; its words restrict ${item.variable} instead`,
          );
          addRestriction(item.variable, item.name);
          return;
        }
        if (!inQuery(item.name))
          notes.push(`"${item.name}" is not in the query; kept because the index names it exactly`);
        const typed =
          type && matches.some((m) => m.type === type) ? matches.filter((m) => m.type === type) : matches;
        anchorOf.set(item.variable, anchors.length);
        anchors.push({
          mention: item.name,
          candidates: typed.map((m) => ({
            id: m.id,
            type: m.type,
            score: Math.max(0, Math.min(1, m.score)),
          })),
          confidence: Math.max(0, Math.min(1, typed[0]!.score)),
        });
      });
    }
  }

  // The answer variable.
  const target = parsed.returns[0] ?? parsed.nodes.find((n) => !anchorOf.has(n.variable))?.variable;
  if (!target) return { notes, reason: 'the query returns nothing' };
  if (anchorOf.has(target))
    return { notes, reason: `the query returns ${target}, a node it names itself, not the answers` };

  // Relationships as triplets over the schema's edge types.
  const term = (variable: string): PlanTerm =>
    anchorOf.has(variable)
      ? { kind: 'anchor', anchor: anchorOf.get(variable)! }
      : { kind: 'variable', name: variable };
  const typeOf = (variable: string) =>
    anchorOf.has(variable) ? anchors[anchorOf.get(variable)!]!.candidates[0]?.type : types.get(variable);
  const triplets: PlanTriplet[] = [];
  for (const relationship of parsed.relationships) {
    const label = `(${relationship.left})-[${relationship.types.join('|')}]-(${relationship.right})`;
    if (relationship.types.length === 0) {
      notes.push(`${label} names no relationship type; left out`);
      continue;
    }
    const edges = relationship.types.map((t) => ({ written: t, found: names.edgeType(t) }));
    for (const e of edges) {
      if (!e.found) notes.push(`relationship "${e.written}" is not an edge type of the schema`);
      else if (e.found.repaired) notes.push(`relationship "${e.written}" read as "${e.found.name}"`);
    }
    const edge = edges.find((e) => e.found)?.found?.name;
    if (!edge) {
      notes.push(`${label} left out`);
      continue;
    }
    if (relationship.variableLength) notes.push(`${label} has a variable length; read as one hop`);
    const left = typeOf(relationship.left);
    const right = typeOf(relationship.right);
    // Seen from the left node: out = left is the edge's source.
    const claimed = relationship.direction === 'both' ? undefined : relationship.direction;
    const direction = names.direction(edge, claimed, left, right);
    if (!direction) {
      notes.push(`${edge} cannot join ${left ?? 'any type'} and ${right ?? 'any type'}; ${label} left out`);
      continue;
    }
    if (direction.repaired) notes.push(`${edge} turned around (the schema has it the other way round)`);
    const [subject, object] =
      direction.direction === 'out'
        ? [relationship.left, relationship.right]
        : [relationship.right, relationship.left];
    triplets.push({ subject: term(subject), edgeType: edge, object: term(object) });
  }

  // Variables: every non-anchor the triplets or the target use.
  const used = new Set<string>([target]);
  for (const t of triplets)
    for (const side of [t.subject, t.object]) if (side.kind === 'variable') used.add(side.name);
  const answerTypes = new Set(schema.targetTypes ?? schema.nodeTypes.map((t) => t.name));
  const targetType = types.get(target);
  if (targetType && !answerTypes.has(targetType))
    notes.push(`${target} is a ${targetType}, not an answer type`);
  const variables: PlanVariable[] = [...used].map((name) => {
    const type = types.get(name);
    const restriction = restrictions.get(name)?.join(' ');
    return { name, ...(type ? { nodeTypes: [type] } : {}), ...(restriction ? { restriction } : {}) };
  });
  const targetTypes: TypeScore[] =
    targetType && answerTypes.has(targetType) ? [{ type: targetType, score: 1 }] : [...offline.targetTypes];
  const restriction = restrictions.get(target)?.join(' ') ?? '';
  if (triplets.length === 0 && !targetType && !restriction)
    return { notes, reason: 'the query constrains nothing the store can ground' };
  return {
    notes,
    plan: {
      query,
      targetTypes,
      anchors,
      paths: [],
      variables,
      triplets,
      target,
      restriction: restriction || offline.restriction,
      confidence: notes.length === 0 ? 0.9 : 0.7,
      cypher: options.cypher,
    },
  };
}

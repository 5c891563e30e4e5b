type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const directions: Readonly<Record<string, 'out' | 'in'>> = {
  out: 'out',
  outgoing: 'out',
  forward: 'out',
  forwards: 'out',
  '->': 'out',
  '-->': 'out',
  in: 'in',
  incoming: 'in',
  backward: 'in',
  backwards: 'in',
  reverse: 'in',
  reversed: 'in',
  '<-': 'in',
  '<--': 'in',
};

/** The first of `keys` that `object` has, as the value under the canonical key. */
function renamed(object: Json, canonical: string, keys: readonly string[], repairs: string[]): unknown {
  if (canonical in object) return object[canonical];
  for (const key of keys) {
    if (key in object) {
      repairs.push(`"${key}" read as "${canonical}"`);
      return object[key];
    }
  }
  return undefined;
}

const list = (value: unknown): unknown[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

function repairHop(hop: unknown, repairs: string[]): unknown {
  if (!isObject(hop)) return hop;
  const out: Json = { ...hop };
  out.edge = renamed(hop, 'edge', ['edgeType', 'relation', 'edge_type', 'type', 'predicate'], repairs);
  const direction = hop.direction;
  if (typeof direction === 'string') {
    const known = directions[direction.trim().toLowerCase()];
    if (known === undefined) {
      repairs.push(`direction "${direction}" not understood (left to the schema)`);
      delete out.direction;
    } else out.direction = known;
  } else if (direction !== undefined) delete out.direction;
  const nodeType = renamed(
    hop,
    'nodeType',
    ['to', 'target', 'targetType', 'node_type', 'nodeTypes'],
    repairs,
  );
  if (Array.isArray(nodeType)) out.nodeType = typeof nodeType[0] === 'string' ? nodeType[0] : undefined;
  else out.nodeType = typeof nodeType === 'string' ? nodeType : undefined;
  if (hop.restriction === null) delete out.restriction;
  for (const key of [
    'edgeType',
    'relation',
    'edge_type',
    'type',
    'predicate',
    'to',
    'target',
    'targetType',
    'node_type',
    'nodeTypes',
  ])
    delete out[key];
  if (out.nodeType === undefined) delete out.nodeType;
  return out;
}

function repairPath(path: unknown, repairs: string[]): unknown {
  if (!isObject(path)) return path;
  const out: Json = { ...path };
  const anchor = renamed(path, 'anchor', ['from', 'start', 'mention', 'source'], repairs);
  if (typeof anchor === 'string' && anchor.trim()) out.anchor = anchor;
  else delete out.anchor;
  for (const key of ['from', 'start', 'mention', 'source']) delete out[key];
  if (path.startType === null) delete out.startType;
  out.hops = list(renamed(path, 'hops', ['steps', 'edges', 'path'], repairs)).map((hop) =>
    repairHop(hop, repairs),
  );
  for (const key of ['steps', 'edges', 'path']) delete out[key];
  return out;
}

/**
 * Fixes what models get wrong about the shape of a path plan before it is validated: a wrapper
 * object (`{"plan": {…}}`), synonyms for keys (`edgeType` for `edge`, `from` for `anchor`), single
 * values where lists belong, and spelled-out directions (`outgoing`, `backward`, `->`). Names of
 * types are left alone: grounding maps those onto the schema.
 */
export function repairPathPlan(value: unknown): { value: unknown; repairs: string[] } {
  const repairs: string[] = [];
  let object = value;
  if (isObject(object)) {
    const keys = Object.keys(object);
    if (
      keys.length === 1 &&
      ['plan', 'result', 'answer', 'output'].includes(keys[0]!) &&
      isObject(object[keys[0]!])
    ) {
      repairs.push(`unwrapped "${keys[0]}"`);
      object = object[keys[0]!];
    }
  }
  if (!isObject(object)) return { value: object, repairs };
  const out: Json = { ...object };
  out.targetTypes = list(
    renamed(object, 'targetTypes', ['targetType', 'target_types', 'answerTypes', 'target'], repairs),
  ).filter((t) => typeof t === 'string');
  out.anchors = list(object.anchors).map((anchor) => {
    if (typeof anchor === 'string') return { mention: anchor };
    if (!isObject(anchor)) return anchor;
    const mention = renamed(anchor, 'mention', ['name', 'text', 'entity'], repairs);
    const type = renamed(anchor, 'type', ['nodeType', 'node_type'], repairs);
    return { mention, ...(typeof type === 'string' ? { type } : {}) };
  });
  out.paths = list(object.paths).map((path) => repairPath(path, repairs));
  if (object.restriction === null || object.restriction === undefined) out.restriction = '';
  for (const key of ['targetType', 'target_types', 'answerTypes', 'target']) delete out[key];
  return { value: out, repairs };
}

import type { SkbEdge, SkbNode, SkbQuery, SkbSchema, SkbSplit } from '@weft/spec';

/** A field-level problem found while parsing one record. */
export interface FieldProblem {
  readonly code: 'MISSING_FIELD' | 'BAD_FIELD';
  readonly field: string;
  readonly message: string;
}

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: FieldProblem[] };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const describe = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

function requireString(record: Json, field: string, problems: FieldProblem[], nonEmpty = true): string {
  const value = record[field];
  if (value === undefined) {
    problems.push({ code: 'MISSING_FIELD', field, message: `missing "${field}" (expected a string)` });
    return '';
  }
  if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
    problems.push({
      code: 'BAD_FIELD',
      field,
      message: `"${field}" must be a ${nonEmpty ? 'non-empty ' : ''}string, got ${typeof value === 'string' ? 'an empty string' : describe(value)}`,
    });
    return '';
  }
  return value;
}

function optionalStrings(record: Json, field: string, problems: FieldProblem[]): string[] | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    problems.push({
      code: 'BAD_FIELD',
      field,
      message: `"${field}" must be an array of strings, got ${describe(value)}`,
    });
    return undefined;
  }
  return value as string[];
}

export function parseNode(value: unknown): Parsed<SkbNode> {
  if (!isObject(value))
    return {
      ok: false,
      problems: [
        { code: 'BAD_FIELD', field: '', message: `a node must be a JSON object, got ${describe(value)}` },
      ],
    };
  const problems: FieldProblem[] = [];
  const id = requireString(value, 'id', problems);
  const type = requireString(value, 'type', problems);
  const name = requireString(value, 'name', problems, false);
  const text = requireString(value, 'text', problems, false);
  const aliases = optionalStrings(value, 'aliases', problems);
  let props: Record<string, string | number | boolean> | undefined;
  if (value.props !== undefined && value.props !== null) {
    if (!isObject(value.props))
      problems.push({
        code: 'BAD_FIELD',
        field: 'props',
        message: `"props" must be an object, got ${describe(value.props)}`,
      });
    else {
      for (const [key, prop] of Object.entries(value.props)) {
        if (typeof prop !== 'string' && typeof prop !== 'number' && typeof prop !== 'boolean') {
          problems.push({
            code: 'BAD_FIELD',
            field: `props.${key}`,
            message: `prop values must be strings, numbers or booleans, got ${describe(prop)}`,
          });
        }
      }
      props = value.props as Record<string, string | number | boolean>;
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: { id, type, name, text, ...(aliases ? { aliases } : {}), ...(props ? { props } : {}) },
  };
}

export function parseEdge(value: unknown): Parsed<SkbEdge> {
  if (!isObject(value))
    return {
      ok: false,
      problems: [
        { code: 'BAD_FIELD', field: '', message: `an edge must be a JSON object, got ${describe(value)}` },
      ],
    };
  const problems: FieldProblem[] = [];
  const src = requireString(value, 'src', problems);
  const type = requireString(value, 'type', problems);
  const dst = requireString(value, 'dst', problems);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { src, type, dst } };
}

const splits: readonly SkbSplit[] = ['train', 'val', 'test'];

export function parseQuery(value: unknown): Parsed<SkbQuery> {
  if (!isObject(value))
    return {
      ok: false,
      problems: [
        { code: 'BAD_FIELD', field: '', message: `a query must be a JSON object, got ${describe(value)}` },
      ],
    };
  const problems: FieldProblem[] = [];
  const id = requireString(value, 'id', problems);
  const query = requireString(value, 'query', problems);
  const answers = optionalStrings(value, 'answers', problems);
  if (value.answers === undefined)
    problems.push({
      code: 'MISSING_FIELD',
      field: 'answers',
      message: 'missing "answers" (expected a non-empty array of node ids)',
    });
  const split = requireString(value, 'split', problems);
  if (split && !splits.includes(split as SkbSplit)) {
    problems.push({
      code: 'BAD_FIELD',
      field: 'split',
      message: `"split" must be one of train, val, test, got "${split}"`,
    });
  }
  if (value.meta !== undefined && !isObject(value.meta))
    problems.push({
      code: 'BAD_FIELD',
      field: 'meta',
      message: `"meta" must be an object, got ${describe(value.meta)}`,
    });
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      id,
      query,
      answers: answers ?? [],
      split: split as SkbSplit,
      ...(isObject(value.meta) ? { meta: value.meta } : {}),
    },
  };
}

/** Checks schema.json; problems carry a JSON path in `field`. */
export function parseSchema(value: unknown): Parsed<SkbSchema> {
  if (!isObject(value))
    return {
      ok: false,
      problems: [
        {
          code: 'BAD_FIELD',
          field: '',
          message: `schema.json must hold a JSON object, got ${describe(value)}`,
        },
      ],
    };
  const problems: FieldProblem[] = [];
  const name = requireString(value, 'name', problems);
  if (value.version !== 1)
    problems.push({
      code: 'BAD_FIELD',
      field: 'version',
      message: `"version" must be 1, got ${JSON.stringify(value.version)}`,
    });
  if (value.description !== undefined && typeof value.description !== 'string') {
    problems.push({ code: 'BAD_FIELD', field: 'description', message: '"description" must be a string' });
  }
  const nodeTypes: { name: string; description?: string }[] = [];
  const declared = new Set<string>();
  if (!Array.isArray(value.nodeTypes) || value.nodeTypes.length === 0) {
    problems.push({
      code: value.nodeTypes === undefined ? 'MISSING_FIELD' : 'BAD_FIELD',
      field: 'nodeTypes',
      message: '"nodeTypes" must be a non-empty array of {name, description?}',
    });
  } else {
    value.nodeTypes.forEach((entry: unknown, index: number) => {
      const field = `nodeTypes[${index}]`;
      if (
        !isObject(entry) ||
        typeof entry.name !== 'string' ||
        entry.name.length === 0 ||
        entry.name === '*'
      ) {
        problems.push({
          code: 'BAD_FIELD',
          field,
          message: 'a node type must be {name: non-empty string other than "*", description?: string}',
        });
        return;
      }
      if (declared.has(entry.name))
        problems.push({ code: 'BAD_FIELD', field, message: `node type "${entry.name}" is declared twice` });
      declared.add(entry.name);
      nodeTypes.push({
        name: entry.name,
        ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      });
    });
  }
  const edgeTypes: { name: string; from: string; to: string; description?: string }[] = [];
  if (!Array.isArray(value.edgeTypes)) {
    problems.push({
      code: value.edgeTypes === undefined ? 'MISSING_FIELD' : 'BAD_FIELD',
      field: 'edgeTypes',
      message: '"edgeTypes" must be an array of {name, from, to, description?}',
    });
  } else {
    value.edgeTypes.forEach((entry: unknown, index: number) => {
      const field = `edgeTypes[${index}]`;
      if (
        !isObject(entry) ||
        typeof entry.name !== 'string' ||
        entry.name.length === 0 ||
        typeof entry.from !== 'string' ||
        typeof entry.to !== 'string'
      ) {
        problems.push({
          code: 'BAD_FIELD',
          field,
          message: 'an edge type must be {name, from, to: strings, description?: string}',
        });
        return;
      }
      for (const end of ['from', 'to'] as const) {
        const type = entry[end] as string;
        if (type !== '*' && Array.isArray(value.nodeTypes) && !declared.has(type)) {
          problems.push({
            code: 'BAD_FIELD',
            field: `${field}.${end}`,
            message: `"${type}" is not a declared node type (or "*")`,
          });
        }
      }
      edgeTypes.push({
        name: entry.name,
        from: entry.from,
        to: entry.to,
        ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      });
    });
  }
  let targetTypes: string[] | undefined;
  if (value.targetTypes !== undefined) {
    if (!Array.isArray(value.targetTypes) || value.targetTypes.some((t: unknown) => typeof t !== 'string')) {
      problems.push({
        code: 'BAD_FIELD',
        field: 'targetTypes',
        message: '"targetTypes" must be an array of node type names',
      });
    } else {
      targetTypes = value.targetTypes as string[];
      targetTypes.forEach((type, index) => {
        if (!declared.has(type))
          problems.push({
            code: 'BAD_FIELD',
            field: `targetTypes[${index}]`,
            message: `"${type}" is not a declared node type`,
          });
      });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      name,
      version: 1,
      ...(typeof value.description === 'string' ? { description: value.description } : {}),
      nodeTypes,
      edgeTypes,
      ...(targetTypes ? { targetTypes } : {}),
    },
  };
}

/** Answers whether an edge of `type` may go from a node of type `from` to one of type `to`. */
export class EdgeTypeRules {
  private readonly allowed = new Set<string>();
  private readonly names = new Set<string>();

  constructor(schema: SkbSchema) {
    for (const edgeType of schema.edgeTypes) {
      this.names.add(edgeType.name);
      this.allowed.add(`${edgeType.name}\u0000${edgeType.from}\u0000${edgeType.to}`);
    }
  }

  isDeclared(type: string): boolean {
    return this.names.has(type);
  }

  allows(type: string, from: string, to: string): boolean {
    const key = (f: string, t: string) => `${type}\u0000${f}\u0000${t}`;
    return (
      this.allowed.has(key(from, to)) ||
      this.allowed.has(key('*', to)) ||
      this.allowed.has(key(from, '*')) ||
      this.allowed.has(key('*', '*'))
    );
  }
}

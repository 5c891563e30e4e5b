import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Relation, WeftError } from '@weft/kit';
import type { EdgeDirection } from '@weft/spec';

/** A constraint of a relational part: the answer reaches `anchor` by following `path` (steps in order, from the answer). */
export interface RelationalConstraint {
  readonly anchor: string;
  /** Each step follows edges of `edge` forwards (`out`, src → dst) or backwards (`in`, dst → src). */
  readonly path: readonly { readonly edge: string; readonly direction: EdgeDirection }[];
}

/**
 * The relational part of `queries/<set>.annotations.jsonl` (the judged sets' of the development KBs):
 * the answers are the nodes of `answerType` that satisfy every constraint (an intersection), the
 * anchors themselves excepted.
 */
export interface RelationalPartData {
  readonly answerType?: string;
  readonly constraints: readonly RelationalConstraint[];
}

/** A relational part's constraint read from its anchor towards the answer. */
export interface RelationPath {
  readonly anchor: string;
  /** `out`: from the edge's source to its destination; `in`: from its destination back to its source. */
  readonly hops: readonly Relation[];
}

/**
 * The relation paths of a relational part: each constraint's steps (written from the answer to the
 * anchor) reversed and turned around, so they read from the anchor towards the answer.
 */
export function relationPaths(part: Pick<RelationalPartData, 'constraints'>): RelationPath[] {
  return part.constraints.map((constraint) => ({
    anchor: constraint.anchor,
    hops: [...constraint.path].reverse().map((step) => ({
      edgeType: step.edge,
      direction: step.direction === 'out' ? ('in' as const) : ('out' as const),
    })),
  }));
}

/**
 * Reads `queries/<set>.annotations.jsonl` of a bundle when it is there: query id → relational part.
 * Lines without a usable `relational_part` object are skipped.
 */
export async function readAnnotations(
  bundle: string,
  set: string,
): Promise<ReadonlyMap<string, RelationalPartData>> {
  const file = path.join(bundle, 'queries', `${set}.annotations.jsonl`);
  const found = new Map<string, RelationalPartData>();
  if (!existsSync(file)) return found;
  const lines = (await readFile(file, 'utf8')).split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: { id?: unknown; relational_part?: unknown };
    try {
      value = JSON.parse(line);
    } catch {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `${path.basename(file)}:${i + 1}: not valid JSON`,
      });
    }
    const part = value.relational_part as RelationalPartData | undefined;
    if (typeof value.id === 'string' && part && Array.isArray(part.constraints)) found.set(value.id, part);
  }
  return found;
}

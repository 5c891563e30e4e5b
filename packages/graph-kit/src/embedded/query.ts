import type { EngineConnection, EngineQueryResult } from './engine.ts';

type QueryResult = EngineQueryResult;

/** Every row of a (possibly multi-statement) result, closing each QueryResult. */
export function drain(result: QueryResult | QueryResult[]): Record<string, unknown>[] {
  const list = Array.isArray(result) ? result : [result];
  const rows: Record<string, unknown>[] = [];
  try {
    // A loop, not push(...rows): spreading a million rows overflows the call stack.
    for (const one of list) for (const row of one.getAllSync() as Record<string, unknown>[]) rows.push(row);
  } finally {
    for (const one of list) one.close();
  }
  return rows;
}

export async function run(
  connection: EngineConnection,
  statement: string,
): Promise<Record<string, unknown>[]> {
  return drain(await connection.query(statement));
}

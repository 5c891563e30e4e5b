import type { QueryResultJson, QueryResultRow } from '@weft/explain';

/** `POST /query` with `explain` and `documents`: the answer the explorer draws. */
export type QueryAnswer = Omit<QueryResultJson, 'results'> & {
  readonly results: readonly (QueryResultRow & { readonly text?: string })[];
};

export interface StackInfo {
  readonly name: string;
  readonly description: string;
}

export interface NodeDetails {
  readonly node: {
    readonly id: string;
    readonly type: string;
    readonly name: string;
    readonly aliases?: string[];
  };
  readonly document: string;
  readonly neighbours: readonly {
    readonly edgeType: string;
    readonly direction: 'in' | 'out';
    readonly nodes: readonly { readonly id: string; readonly type: string; readonly name: string | null }[];
    readonly truncated: boolean;
  }[];
}

export interface Health {
  readonly store: { readonly name: string; readonly nodes: number; readonly edges: number };
}

/** The server's JSON error, as an Error whose message people can read. */
export class ApiRequestError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'ApiRequestError';
    this.code = code;
  }
}

async function json<T>(response: Response): Promise<T> {
  const body = await response.json();
  if (!response.ok)
    throw new ApiRequestError(
      body?.error?.code ?? String(response.status),
      body?.error?.message ?? response.statusText,
    );
  return body as T;
}

export async function listStacks(): Promise<{ default: string; stacks: StackInfo[] }> {
  return json(await fetch('/stacks'));
}

export async function health(): Promise<Health> {
  return json(await fetch('/health'));
}

export async function runQuery(query: string, stack: string, limit: number): Promise<QueryAnswer> {
  return json(
    await fetch('/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, stack, limit, explain: true, documents: true }),
    }),
  );
}

export async function getNode(id: string): Promise<NodeDetails> {
  return json(await fetch(`/nodes/${encodeURIComponent(id)}`));
}

import type { QueryResultJson, QueryResultRow } from '@weft/explain';
import { type SseEvent, sseReader } from './sse.ts';

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

/** A node found by name (`GET /nodes?name=`). */
export interface NodeMatch {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly matched: string;
  readonly score: number;
}

export async function searchNodes(name: string, limit = 10): Promise<NodeMatch[]> {
  const body = await json<{ matches: NodeMatch[] }>(
    await fetch(`/nodes?name=${encodeURIComponent(name)}&limit=${limit}`),
  );
  return body.matches;
}

/**
 * `POST /ask`: calls `onEvent` with every server-sent event as it arrives (evidence, delta…, done);
 * a bad request is thrown as an `ApiRequestError` before any event.
 */
export async function askStream(
  question: string,
  stack: string,
  onEvent: (event: SseEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await fetch('/ask', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question, stack }),
    ...(signal ? { signal } : {}),
  });
  if (!response.ok || !response.body) {
    await json(response);
    return;
  }
  const reader = sseReader();
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
    for (const event of reader.push(decoder.decode(chunk, { stream: true }))) onEvent(event);
}

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

/** Where the tab keeps the API key it was given (sessionStorage: this tab only, gone when it closes). */
export const apiKeyStorageKey = 'weft-api-key';

/**
 * Asks the person for an API key when the server answers 401 (a server started with
 * `--api-key-file`); resolves with the key, or undefined when they give up. Set by the page.
 */
let askForKey: ((reason: string) => Promise<string | undefined>) | undefined;
export function onApiKeyNeeded(ask: (reason: string) => Promise<string | undefined>): void {
  askForKey = ask;
}

function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(apiKeyStorageKey) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * `fetch` with the tab's API key (`Authorization: Bearer <key>`) on every request; on a 401 it asks
 * for a key (`onApiKeyNeeded`), keeps it for the tab and sends the request again.
 */
export async function apiFetch(url: string, init: RequestInit = {}): Promise<Response> {
  for (;;) {
    const key = storedKey();
    const headers = new Headers(init.headers);
    if (key) headers.set('authorization', `Bearer ${key}`);
    const response = await fetch(url, { ...init, headers });
    if (response.status !== 401 || !askForKey) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { error?: { message?: string } } | undefined;
    const given = await askForKey(
      key
        ? `The server refused the key: ${body?.error?.message ?? 'unauthorized'}.`
        : 'This server needs an API key.',
    );
    if (!given) return response;
    try {
      sessionStorage.setItem(apiKeyStorageKey, given);
    } catch {
      return response;
    }
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
  return json(await apiFetch('/stacks'));
}

export async function health(): Promise<Health> {
  return json(await apiFetch('/health'));
}

export async function runQuery(query: string, stack: string, limit: number): Promise<QueryAnswer> {
  return json(
    await apiFetch('/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, stack, limit, explain: true, documents: true }),
    }),
  );
}

export async function getNode(id: string): Promise<NodeDetails> {
  return json(await apiFetch(`/nodes/${encodeURIComponent(id)}`));
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
    await apiFetch(`/nodes?name=${encodeURIComponent(name)}&limit=${limit}`),
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
  const response = await apiFetch('/ask', {
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

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test support (not a test): a chat request as the canned server received it. */
export interface CannedRequest {
  readonly path: string;
  readonly body: {
    readonly model?: string;
    readonly messages?: readonly { readonly role: string; readonly content: unknown }[];
    readonly [key: string]: unknown;
  };
  /** All message texts joined: what replies are chosen by. */
  readonly text: string;
}

/** What the server answers: a reply's content with token usage, an HTTP error, or a delay first. */
export type CannedReply =
  | {
      readonly content: string;
      readonly promptTokens?: number;
      readonly completionTokens?: number;
      readonly delayMs?: number;
    }
  | { readonly status: number; readonly error: string }
  /** Never answers: the request stays open until the client gives up or the server closes. */
  | { readonly hang: true };

/**
 * An OpenAI-compatible chat server on 127.0.0.1 with canned replies (`POST /v1/chat/completions`),
 * so that tests drive the real `openai-compatible` provider over HTTP without any external service.
 * `reply` picks the answer per request; every request is kept in `requests`.
 */
export async function cannedOpenAiServer(reply: (request: CannedRequest) => CannedReply) {
  const requests: CannedRequest[] = [];
  const read = async (message: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of message) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server: Server = createServer(async (message, response) => {
    const raw = await read(message);
    const body = raw ? (JSON.parse(raw) as CannedRequest['body']) : {};
    const text = (body.messages ?? [])
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
      .join('\n');
    const request = { path: message.url ?? '', body, text };
    requests.push(request);
    if (message.method !== 'POST' || !request.path.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no route ${message.method} ${request.path}` } }));
      return;
    }
    const answer = reply(request);
    if ('hang' in answer) return;
    if ('status' in answer) {
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: answer.error, type: 'canned_error' } }));
      return;
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (response.destroyed) return;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model ?? 'canned',
        choices: [
          { index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' },
        ],
        usage: {
          prompt_tokens: answer.promptTokens ?? 100,
          completion_tokens: answer.completionTokens ?? 20,
          total_tokens: (answer.promptTokens ?? 100) + (answer.completionTokens ?? 20),
        },
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Test support: one `POST /v1/embeddings` request as the embeddings server received it. */
export interface EmbeddingsCall {
  /** 1-based, in arrival order. */
  readonly number: number;
  readonly inputs: readonly string[];
}

/** What the embeddings server does with a call: fail it (status, headers), hold it unanswered, or answer. */
export type EmbeddingsFailure = { readonly status: number; readonly headers?: Record<string, string> };

/**
 * A deterministic embedding of `text` in `dimensions` dimensions (hashed words, L2-normalised): texts
 * sharing words are near, so a vector stack ranks as it would with a real model, and the same text
 * always gets the same vector.
 */
export function fakeEmbedding(text: string, dimensions = 32): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619) >>> 0;
    vector[hash % dimensions]! += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}

/**
 * An OpenAI-compatible embeddings server on 127.0.0.1 (`POST /v1/embeddings`) with deterministic
 * vectors (`fakeEmbedding`), for tests of the real `openai-compatible` provider over HTTP. It keeps
 * every call (`calls`) and every input it answered (`answered`, in order); `fail` fails a call on
 * purpose (e.g. 429 with Retry-After, 500), and while `hold` says so a call gets no answer at all
 * (`held` counts them), as a server that is slow while its client is killed.
 */
export async function embeddingsServer(
  options: {
    readonly dimensions?: number;
    /** Each answer is sent this long after the call arrived (a hosted API's latency). */
    delayMs?: number;
    fail?: (call: EmbeddingsCall) => EmbeddingsFailure | undefined;
    hold?: (call: EmbeddingsCall) => boolean;
  } = {},
) {
  const calls: EmbeddingsCall[] = [];
  const answered: string[] = [];
  const failures: { call: number; status: number }[] = [];
  let held = 0;
  const server: Server = createServer(async (message, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of message) chunks.push(chunk as Buffer);
    if (message.method !== 'POST' || !message.url?.endsWith('/embeddings')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no route ${message.method} ${message.url}` } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      model?: string;
      input: string | string[];
    };
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    const call = { number: calls.length + 1, inputs };
    calls.push(call);
    if (options.hold?.(call)) {
      held++;
      return;
    }
    const failure = options.fail?.(call);
    if (failure) {
      failures.push({ call: call.number, status: failure.status });
      response.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
      response.end(
        JSON.stringify({ error: { message: `failed on purpose (${failure.status})`, type: 'canned_error' } }),
      );
      return;
    }
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (response.destroyed) return;
    answered.push(...inputs);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        object: 'list',
        model: body.model ?? 'fake-embed',
        data: inputs.map((input, index) => ({
          object: 'embedding',
          index,
          embedding: fakeEmbedding(input, options.dimensions),
        })),
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const baseURL = `http://127.0.0.1:${port}/v1`;
  return {
    baseURL,
    /** The `--embedder` spec of this server's model. */
    embedder: `openai-compatible:${baseURL}:fake-embed`,
    calls,
    answered,
    failures,
    held: () => held,
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

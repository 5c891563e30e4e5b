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

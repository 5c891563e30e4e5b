import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from '@weft/core/test';
import { createStackRegistry } from '@weft/stacks';
import { type OpenedStore, openStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerHandle, startServer } from './start-server.ts';
import { answerStreamParts } from './testing/canned-answer-model.ts';
import { readJson } from './testing/read-json.ts';
import { toyStoreDirectory } from './testing/toy-store-directory.ts';

let directory: Awaited<ReturnType<typeof toyStoreDirectory>>;
let store: OpenedStore;

beforeAll(async () => {
  directory = await toyStoreDirectory();
  store = await openStore(directory.db);
});
afterAll(async () => {
  await store?.close();
  await directory?.cleanup();
});

const question = 'Nikon telephoto zoom lens for birds';

/**
 * A model that streams `deltas`, `delayMs` apart, and remembers whether its stream was aborted
 * (the signal `streamText` passes down when the request's deadline fires or its client goes).
 */
function streamingModel(deltas: readonly string[], delayMs = 0) {
  const seen = { aborted: false, prompts: [] as string[] };
  const model = new MockLanguageModelV4({
    doStream: async ({ prompt, abortSignal }) => {
      seen.prompts.push(JSON.stringify(prompt));
      const parts = answerStreamParts(deltas, { input: 300, output: 20 });
      let timer: NodeJS.Timeout | undefined;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          let next = 0;
          const push = () => {
            if (abortSignal?.aborted) return;
            controller.enqueue(parts[next++]!);
            if (next === parts.length) controller.close();
            else timer = setTimeout(push, parts[next - 1]!.type === 'text-delta' ? delayMs : 0);
          };
          abortSignal?.addEventListener('abort', () => {
            seen.aborted = true;
            clearTimeout(timer);
            controller.error(abortSignal.reason);
          });
          push();
        },
      });
      return { stream };
    },
  });
  return { model, seen };
}

interface Event {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

/** Parses a server-sent event stream (`event:` and one `data:` line per event). */
function parseEvents(text: string): Event[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

async function serveWith(model: MockLanguageModelV4 | undefined, limits = {}) {
  return startServer({
    store,
    registry: createStackRegistry(),
    port: 0,
    limits,
    ...(model ? { createOptions: { languageModel: model } } : {}),
  });
}

const ask = (handle: ServerHandle, body: unknown, init: RequestInit = {}) =>
  fetch(`${handle.url}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  });

async function inFlight(handle: ServerHandle) {
  const body = (await (await fetch(`${handle.url}/health`)).json()) as { requests: { inFlight: number } };
  return body.requests.inFlight;
}

describe('POST /ask', () => {
  it('streams the evidence, the answer as it is written, and the checked citations', async () => {
    const { model, seen } = streamingModel([
      'The AF-S Nikkor 200-500mm ',
      'is a telephoto zoom for birds [p:nikkor]. ',
      'It fits the Nikon D850 [p:zz-invented].',
    ]);
    const handle = await serveWith(model);
    try {
      const response = await ask(handle, { question, stack: 'bm25', limit: 5 });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
      const events = parseEvents(await response.text());
      expect(events.map((e) => e.event)).toEqual(['evidence', 'delta', 'delta', 'delta', 'done']);
      const evidence = events[0]!.data as {
        stack: string;
        results: string[];
        evidence: { nodes: { id: string }[]; truncated: boolean };
      };
      expect(evidence.stack).toBe('bm25');
      expect(evidence.results[0]).toBe('p:nikkor');
      expect(evidence.evidence.nodes.map((n) => n.id)).toContain('p:nikkor');
      // The model saw the evidence the first event announced.
      expect(seen.prompts[0]).toContain('[p:nikkor]');
      expect(
        events
          .filter((e) => e.event === 'delta')
          .map((e) => e.data.text)
          .join(''),
      ).toMatch(/^The AF-S Nikkor 200-500mm is a telephoto zoom for birds \[p:nikkor\]\. It fits/);
      expect(events[4]!.data).toMatchObject({
        status: 'answered',
        citations: [
          { id: 'p:nikkor', valid: true },
          { id: 'p:zz-invented', valid: false },
        ],
        invalidCitations: ['p:zz-invented'],
        usage: { inputTokens: 300, outputTokens: 20 },
      });
    } finally {
      await handle.shutdown();
    }
  });

  it('sends only the evidence when the server has no model', async () => {
    const handle = await serveWith(undefined);
    try {
      const events = parseEvents(await (await ask(handle, { question })).text());
      expect(events.map((e) => e.event)).toEqual(['evidence', 'done']);
      expect(events[0]!.data.stack).toBe('default');
      expect(events[1]!.data).toMatchObject({ status: 'no-model', answer: '', note: expect.any(String) });
    } finally {
      await handle.shutdown();
    }
  });

  it("ends the answer at the model's deadline (a quarter of the request's limit before it), keeping what came, and aborts the model", async () => {
    // A request limit of 2 s leaves the model 1 s: the third piece (at 1.4 s) never comes, and the
    // answer ends as failed (timed out) within the request, not as a 504 or an aborted stream.
    const { model, seen } = streamingModel(['The AF-S Nikkor ', 'is a lens [p:nikkor]. ', 'More.'], 700);
    const handle = await serveWith(model, { timeoutMs: 2000 });
    try {
      const events = parseEvents(await (await ask(handle, { question, stack: 'bm25' })).text());
      const done = events.at(-1)!;
      expect(events[0]!.event).toBe('evidence');
      expect(done.event).toBe('done');
      expect(done.data).toMatchObject({ status: 'failed' });
      expect(String(done.data.error)).toMatch(/timeout|timed out|time/i);
      expect(String(done.data.answer)).toMatch(/^The AF-S Nikkor /);
      expect(String(done.data.answer)).not.toContain('More.');
      expect(seen.aborted).toBe(true);
      expect(await inFlight(handle)).toBe(0);
    } finally {
      await handle.shutdown();
    }
  });

  it('aborts the model when the client hangs up mid-answer', async () => {
    const { model, seen } = streamingModel(['one ', 'two ', 'three ', 'four.'], 300);
    const handle = await serveWith(model);
    try {
      const client = new AbortController();
      const response = await ask(handle, { question, stack: 'bm25' }, { signal: client.signal });
      const reader = response.body!.getReader();
      let text = '';
      while (!text.includes('event: delta')) {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
      }
      client.abort();
      for (let i = 0; i < 200 && !seen.aborted; i++) await new Promise((r) => setTimeout(r, 10));
      expect(seen.aborted).toBe(true);
      for (let i = 0; i < 200 && (await inFlight(handle)) > 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(await inFlight(handle)).toBe(0);
    } finally {
      await handle.shutdown();
    }
  });

  it.each([
    ['no question', { stack: 'bm25' }, 'WEFT_BAD_INPUT'],
    ['an empty question', { question: '  ' }, 'WEFT_BAD_INPUT'],
    ['an unknown field', { question, limt: 5 }, 'WEFT_BAD_INPUT'],
    ['an unknown stack', { question, stack: 'nope' }, 'WEFT_UNKNOWN_STACK'],
    ['a question over the length limit', { question: 'lens '.repeat(201) }, 'WEFT_QUERY_TOO_LONG'],
    ['limit 0', { question, limit: 0 }, 'WEFT_LIMIT_OUT_OF_RANGE'],
    ['an evidence budget under 50 tokens', { question, maxEvidenceTokens: 10 }, 'WEFT_BAD_INPUT'],
  ])('refuses %s with a JSON 400 before any stream', async (_, body, code) => {
    const handle = await serveWith(undefined);
    try {
      const response = await ask(handle, body);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect((await readJson(response, 'error')).error.code).toBe(code);
    } finally {
      await handle.shutdown();
    }
  });
});

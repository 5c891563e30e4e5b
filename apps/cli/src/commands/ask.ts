import path from 'node:path';
import { evidenceJson, groundedAnswerJson, streamGroundedAnswer } from '@weft/answer';
import { staleArtifactsWarning } from '@weft/store';
import {
  type Command,
  integerOption,
  maxResultLimit,
  queryText,
  requiredOption,
  stringOption,
} from '../command.ts';
import {
  hasModel,
  modelOptionDetails,
  modelOptions,
  parseModelOptions,
  stackCreateOptions,
} from '../model-options.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';

/** Exit code when the model failed to answer or gave a reply that cites no evidence (status `ungrounded`). */
const modelFailed = 1;

export function createAskCommand(deps: CommandDeps = defaultDeps): Command {
  return {
    name: 'ask',
    summary:
      'Answer a question from a store, citing the nodes it rests on (needs --model; without one, prints the evidence)',
    usage:
      'weft ask "<question>" --db <dir> [--stack S] [--limit 20] [--max-evidence-tokens 1500] [--model SPEC] [--json]',
    details: [
      '--db <dir>        store directory built by weft ingest (required)',
      `--stack S         retrieval stack that gathers the evidence (default: ${deps.registry.defaultName})`,
      `--limit N         nodes retrieved (default 20, at most ${maxResultLimit}); the best ten, their paths and MixRAG’s`,
      '                  subgraph (stack mixrag-offline) are the evidence',
      '--max-evidence-tokens N   token budget of the evidence (default 1500)',
      ...modelOptionDetails,
      '--json            one JSON object: the answer, every citation and whether the evidence holds it,',
      '                  the sentences that cite nothing, and the evidence',
      '',
      'The answer streams as it is written and cites node ids in [brackets]; every citation is checked',
      'against the evidence: ids outside it and sentences without a citation are reported (marked in --json).',
      'A reply that cites no node of the evidence is no answer: status ungrounded, exit 1 (as when the model fails).',
    ],
    examples: [
      'weft ask "Which kind of headache affects mostly women?" --db .weft/wordnet --model openai:gpt-4o-mini',
      'weft ask "Which Fire-type Pokémon learns Flare Blitz?" --db /tmp/pk --stack mixrag-offline --model ollama:llama3.1 --json',
      'weft ask "a large wild cat of Africa" --db .weft/wordnet   # no model: the evidence only',
    ],
    options: {
      db: { type: 'string' },
      stack: { type: 'string' },
      limit: { type: 'string' },
      'max-evidence-tokens': { type: 'string' },
      ...modelOptions,
    },
    async run(args, io) {
      const question = queryText(args, 'question');
      const db = path.resolve(io.cwd, requiredOption(args, 'db'));
      const limit = integerOption(args, 'limit', 20, 1, maxResultLimit);
      const maxTokens = integerOption(args, 'max-evidence-tokens', 1500, 50);
      const stackName = stringOption(args, 'stack') ?? deps.registry.defaultName;
      const json = args.values.json === true;
      const settings = parseModelOptions(args, { cwd: io.cwd });
      const createOptions = await stackCreateOptions(settings);
      const model = createOptions.languageModel;
      const store = await deps.openStore(db);
      try {
        const retriever = await deps.registry.create(stackName, store, createOptions);
        const answer = await streamGroundedAnswer({
          question,
          retriever,
          graph: store.graph,
          ...(model ? { model } : {}),
          limit,
          evidence: { maxTokens },
        });
        // Trained parts fitted before many updates (weft update) are reported, as by weft query.
        const stale = await staleArtifactsWarning(store.directory, store.manifest);
        if (!json && stale) io.stderr.write(`warning: ${stale}\n`);
        if (!json) {
          if (!hasModel(settings)) {
            io.stdout.write(`${answer.evidence.text}\n`);
            io.stderr.write(
              'No model was given (--model SPEC or WEFT_MODEL): above is the evidence an answer would rest on.\n',
            );
            return 0;
          }
          for await (const delta of answer.textStream) io.stdout.write(delta);
        }
        const done = await answer.finished();
        if (json) {
          io.stdout.write(
            `${JSON.stringify({
              question,
              stack: retriever.name,
              ...(done.status === 'no-model'
                ? { note: 'no model was given (--model SPEC or WEFT_MODEL): evidence only' }
                : {}),
              ...groundedAnswerJson(done),
              evidence: evidenceJson(answer.evidence),
              retrieval: {
                results: answer.retrieval.ranking.map((c) => c.id),
                llmCalls: answer.retrieval.trace.llmCalls,
              },
              ...(stale ? { warnings: [stale] } : {}),
            })}\n`,
          );
          return done.status === 'failed' || done.status === 'ungrounded' ? modelFailed : 0;
        }
        io.stdout.write('\n');
        if (done.status === 'failed') {
          // What was gathered still stands: the evidence, as without a model.
          io.stdout.write(`${answer.evidence.text}\n`);
          io.stderr.write(
            `The model failed to answer: ${done.error ?? 'unknown error'}. Above is the evidence an answer would rest on.\n`,
          );
          return modelFailed;
        }
        if (done.status === 'ungrounded') {
          io.stderr.write(
            `No grounded answer: the model's reply cites no node of the evidence${done.invalid.length > 0 ? ` (only ids that are not in it: ${done.invalid.join(', ')})` : ''}, so nothing above rests on the store. Try another --stack, a larger --limit or another --model.\n`,
          );
          return modelFailed;
        }
        const valid = [...new Set(done.citations.filter((c) => c.valid).map((c) => c.id))];
        io.stdout.write(
          `\nCited ${valid.length} node${valid.length === 1 ? '' : 's'} of the evidence${valid.length ? `: ${valid.join(', ')}` : ''}.\n`,
        );
        if (done.invalid.length > 0)
          io.stdout.write(`Not in the evidence (invented or misquoted): ${done.invalid.join(', ')}\n`);
        for (const sentence of done.uncited) io.stdout.write(`Uncited: ${sentence}\n`);
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const askCommand = createAskCommand();

import path from 'node:path';
import { retrieve } from '@weft/core';
import { staleArtifactsWarning } from '@weft/store';
import {
  type Command,
  integerOption,
  maxQueryChars,
  maxResultLimit,
  queryText,
  requiredOption,
  stringOption,
} from '../command.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';
import {
  fetchLabels,
  mentionedIds,
  noResultReason,
  queryResultJson,
  renderExplanation,
  traceWarnings,
} from '@weft/explain';
import {
  hasModel,
  modelOptionDetails,
  modelOptions,
  parseModelOptions,
  stackCreateOptions,
} from '../model-options.ts';

export function createQueryCommand(deps: CommandDeps = defaultDeps): Command {
  return {
    name: 'query',
    summary: 'Rank the nodes of a store for a question, optionally explaining the plan and the paths',
    usage:
      'weft query "<text>" --db <dir> [--stack S] [--limit 20] [--explain] [--model SPEC] [--llm-when W] [--json]',
    details: [
      '--db <dir>        store directory built by weft ingest (required)',
      `--stack S         retrieval stack (default: ${deps.registry.defaultName}); see the list below`,
      `--limit N         how many results (default 20, at most ${maxResultLimit})`,
      '--explain         print the plan, the anchors and the paths that reached each result',
      '--embedder SPEC   embed queries with this embedder (must match the store)',
      ...modelOptionDetails,
      '--json            one JSON object: results, LLM calls and tokens, warnings; the plan and',
      '                  trajectories with --explain',
      '',
      `The query text may be up to ${maxQueryChars.toLocaleString('en-US')} characters long (as for weft serve).`,
      '',
      'Stacks:',
      ...deps.registry.list().map((entry) => `  ${entry.name.padEnd(16)}${entry.description}`),
    ],
    examples: [
      'weft query "a large wild cat of Africa and Asia" --db .weft/wordnet',
      'weft query "Which kind of dog is bred for herding?" --db .weft/wordnet --stack bm25 --limit 5 --explain',
      'weft query "musical instrument with strings" --db .weft/wordnet --json',
      'weft query "kinds of dog bred for herding" --db .weft/wordnet --stack mor --model openai:gpt-4o-mini --explain',
      'weft query "kinds of dog bred for herding" --db .weft/wordnet --stack focused --model openai-compatible:http://127.0.0.1:8080/v1:llama-3.1-8b --json',
    ],
    options: {
      db: { type: 'string' },
      stack: { type: 'string' },
      limit: { type: 'string' },
      explain: { type: 'boolean' },
      embedder: { type: 'string' },
      ...modelOptions,
    },
    async run(args, io) {
      const text = queryText(args, 'query text');
      const db = path.resolve(io.cwd, requiredOption(args, 'db'));
      const limit = integerOption(args, 'limit', 20, 1, maxResultLimit);
      const stackName = stringOption(args, 'stack') ?? deps.registry.defaultName;
      const explain = args.values.explain === true;
      const embedder = stringOption(args, 'embedder');
      const model = parseModelOptions(args, { cwd: io.cwd });
      const createOptions = await stackCreateOptions(model);

      const store = await deps.openStore(db, embedder ? { queryEmbedder: embedder } : {});
      try {
        const retriever = await deps.registry.create(stackName, store, createOptions);
        const result = await retrieve(retriever, { query: text, limit });
        const labels = await fetchLabels(
          store.graph,
          explain ? mentionedIds(result) : result.ranking.map((c) => c.id),
        );
        const answer = queryResultJson(result, labels, { query: text, stack: retriever.name, explain });
        // Trained parts fitted before many updates (weft update) are reported, never used silently.
        const stale = await staleArtifactsWarning(store.directory, store.manifest);
        const json = stale ? { ...answer, warnings: [...answer.warnings, stale] } : answer;
        const { results } = json;
        if (args.values.json === true) {
          io.stdout.write(`${JSON.stringify(json)}\n`);
          return 0;
        }
        if (stale) io.stderr.write(`warning: ${stale}\n`);
        // With a model, what the LLM stages fell back on belongs with the answer (stderr: for people).
        if (hasModel(model) && !explain)
          for (const warning of traceWarnings(result)) io.stderr.write(`note: ${warning}\n`);
        // Without one, an LLM stack's stages run offline: said once, so plain output does not hide it.
        if (!hasModel(model) && !explain) {
          const offline = traceWarnings(result).filter((w) => w.includes('no language model is configured'));
          if (offline.length > 0)
            io.stderr.write(
              `note: stack ${retriever.name} asks a language model and none was given (--model SPEC or WEFT_MODEL): ${offline.map((w) => w.split(':')[0]).join(', ')} ran offline\n`,
            );
        }
        if (explain) {
          io.stdout.write(`Query: ${text}\nStack: ${retriever.name}\n${renderExplanation(result, labels)}\n`);
          return 0;
        }
        const idWidth = Math.max(2, ...results.map((r) => r.id.length));
        const typeWidth = Math.max(4, ...results.map((r) => (r.type ?? '?').length));
        io.stdout.write(
          `${[
            `${'#'.padStart(3)}  ${'id'.padEnd(idWidth)}  ${'type'.padEnd(typeWidth)}  ${'score'.padStart(9)}  name`,
            ...results.map(
              (r) =>
                `${String(r.rank).padStart(3)}  ${r.id.padEnd(idWidth)}  ${(r.type ?? '?').padEnd(typeWidth)}  ${r.score.toFixed(4).padStart(9)}  ${r.name ?? ''}`,
            ),
            ...(results.length === 0 ? [`(no results) ${noResultReason}`] : []),
          ].join('\n')}\n`,
        );
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const queryCommand = createQueryCommand();

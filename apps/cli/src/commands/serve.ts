import path from 'node:path';
import { type Command, integerOption, requiredOption, stringOption, UsageError } from '../command.ts';
import { modelCallTimeoutMs } from '@weft/server/limits';
import {
  hasModel,
  modelOptionDetails,
  modelOptions,
  parseModelOptions,
  stackCreateOptions,
} from '../model-options.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';

const loopback = new Set(['127.0.0.1', '::1', 'localhost']);

export function createServeCommand(deps: CommandDeps = defaultDeps): Command {
  return {
    name: 'serve',
    summary:
      'Serve a store over HTTP (query, stacks, nodes, OpenAPI) with the explorer, a page that draws the paths',
    usage:
      'weft serve --db <dir> [--port 8080] [--host 127.0.0.1] [--api-key-file F] [--timeout-ms 30000] [--model SPEC] [--json]',
    details: [
      '--db <dir>        store directory built by weft ingest (required); opened once, read-only',
      '--port P          port to listen on (default 8080; 0 picks a free one)',
      '--host H          interface (default 127.0.0.1: this machine only). Without API keys the',
      '                  API has no authentication: expose it (0.0.0.0) only on a network you trust',
      '--api-key-file F  API keys (default: the file $WEFT_API_KEY_FILE names): one key per line (at',
      '                  least 16 characters), optionally followed by its scopes read, write (default',
      '                  both); every request but GET /health then needs Authorization: Bearer <key>',
      '                  (401 without). Keys are never printed or logged.',
      '--timeout-ms N    abort a retrieval after N ms and answer 504, or end an answer stream (default 30000);',
      '                  with a model, its calls stop a quarter earlier (at least 1 s) so that the stages',
      '                  fall back in time: --model-timeout defaults to that and may not exceed it',
      '--embedder SPEC   embed queries with this embedder (must match the store)',
      ...modelOptionDetails,
      '--json            one JSON line when listening ({url, …}) and one when stopped',
      '',
      'Open the printed address in a browser for the explorer; GET /openapi.json describes the API:',
      '  POST /query {query, stack?, limit?, explain?, documents?}  the JSON of weft query --json',
      '  POST /ask {question, stack?, limit?, maxEvidenceTokens?}  the answer as server-sent events',
      '    (evidence, delta…, done: citations checked as by weft ask; needs --model, else evidence only)',
      '  GET /stacks, GET /nodes/{id}, GET /nodes?name=… (find nodes by name), GET /health',
      '  POST /mcp  the tools of weft mcp (search, get_node, neighbors; ask with --model) for AI agents,',
      '    over MCP Streamable HTTP (stateless), behind the same API keys (read scope)',
      'SIGTERM or Ctrl-C stops it gracefully: requests in flight finish, then the store is closed.',
    ],
    examples: [
      'weft serve --db .weft/wordnet',
      'weft serve --db .weft/wordnet --port 0 --json',
      'openssl rand -hex 32 > keys.txt && weft serve --db .weft/wordnet --host 0.0.0.0 --api-key-file keys.txt',
      `curl -s localhost:8080/stacks -H "Authorization: Bearer $(head -1 keys.txt)"`,
      `curl -s localhost:8080/query -H 'content-type: application/json' -d '{"query": "a part of the eye", "limit": 5}'`,
      'weft serve --db .weft/wordnet --model ollama:llama3.1   # POST /ask answers in words',
      `curl -sN localhost:8080/ask -H 'content-type: application/json' -d '{"question": "a part of the eye"}'`,
    ],
    options: {
      db: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'api-key-file': { type: 'string' },
      embedder: { type: 'string' },
      ...modelOptions,
    },
    async run(args, io) {
      if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
      const db = path.resolve(io.cwd, requiredOption(args, 'db'));
      const port = integerOption(args, 'port', 8080, 0);
      if (port > 65_535) throw new UsageError(`--port must be at most 65535, got ${port}`);
      const host = stringOption(args, 'host') ?? '127.0.0.1';
      const timeoutMs = integerOption(args, 'timeout-ms', 30_000);
      const embedder = stringOption(args, 'embedder');
      const json = args.values.json === true;
      const settings = parseModelOptions(args, { cwd: io.cwd });
      // A model's call limit is derived from the request's, leaving time for the offline fallback; a
      // --model-timeout that the request limit would cut is refused here rather than failing queries.
      let modelTimeoutMs: number | undefined;
      if (hasModel(settings))
        try {
          modelTimeoutMs = modelCallTimeoutMs(timeoutMs, settings.timeoutMs);
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
      const createOptions = await stackCreateOptions(
        modelTimeoutMs === undefined ? settings : { ...settings, timeoutMs: modelTimeoutMs },
      );
      // Loaded here, not at the top, so that `weft --help` does not load the server and the engines.
      const [{ ApiKeys, apiKeyFileVariable, serveStore, shutdownOnSignals }, { explorerAssets }] =
        await Promise.all([import('@weft/server'), import('@weft/explorer')]);
      const keyFile =
        stringOption(args, 'api-key-file') ?? (process.env[apiKeyFileVariable]?.trim() || undefined);
      const apiKeys = keyFile ? await ApiKeys.read(path.resolve(io.cwd, keyFile)) : undefined;

      let handle: Awaited<ReturnType<typeof serveStore>>;
      try {
        handle = await serveStore({
          db,
          host,
          port,
          openStore: deps.openStore,
          ...(embedder ? { open: { queryEmbedder: embedder } } : {}),
          registry: deps.registry,
          createOptions,
          limits: { timeoutMs },
          assets: explorerAssets(),
          ...(apiKeys ? { apiKeys } : {}),
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE')
          throw new UsageError(`port ${port} on ${host} is in use; choose another with --port`);
        if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
          throw new UsageError(`cannot listen on --host ${host}`);
        throw error;
      }
      const removeHandlers = shutdownOnSignals(handle, (signal) => {
        if (!json) io.stderr.write(`weft serve: ${signal}: finishing requests in flight, then stopping\n`);
      });
      if (json)
        io.stdout.write(
          `${JSON.stringify({ url: handle.url, host: handle.host, port: handle.port, db, apiKeys: apiKeys?.size ?? 0 })}\n`,
        );
      else {
        io.stdout.write(`${handle.url}/\n`);
        io.stderr.write(
          `weft serve: ${db} at ${handle.url}/ (the explorer; the API is described at /openapi.json). Ctrl-C stops.\n`,
        );
        if (apiKeys)
          io.stderr.write(
            `weft serve: ${apiKeys.size} API key${apiKeys.size === 1 ? '' : 's'} from ${keyFile}: every request but GET /health needs Authorization: Bearer <key>\n`,
          );
      }
      if (!loopback.has(host) && !apiKeys)
        io.stderr.write(
          `weft serve: listening on ${host}: anyone who can reach it can query the store (no authentication; see --api-key-file)\n`,
        );
      try {
        await handle.closed;
      } finally {
        removeHandlers();
      }
      const requests = handle.tracker.snapshot();
      if (json) io.stdout.write(`${JSON.stringify({ stopped: true, requests })}\n`);
      else io.stderr.write(`weft serve: stopped after ${requests.served} answered requests\n`);
      return 0;
    },
  };
}

export const serveCommand = createServeCommand();

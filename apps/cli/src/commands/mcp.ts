import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { staleArtifactsWarning } from '@weft/store';
import { type Command, requiredOption, stringOption, UsageError } from '../command.ts';
import { modelOptionDetails, modelOptions, parseModelOptions, stackCreateOptions } from '../model-options.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';

/** Where the MCP messages flow: the process's stdin and the command's stdout by default. */
export interface McpStreams {
  readonly stdin?: Readable;
}

export function createMcpCommand(deps: CommandDeps = defaultDeps, streams: McpStreams = {}): Command {
  return {
    name: 'mcp',
    summary:
      'Serve a store to AI agents over MCP (stdio): tools search, get_node, neighbors, and ask with --model',
    usage: 'weft mcp --db <dir> [--stack S] [--model SPEC]',
    details: [
      '--db <dir>        store directory built by weft ingest (required); opened once, read-only',
      `--stack S         stack the search and ask tools use when the caller names none (default: ${deps.registry.defaultName})`,
      ...modelOptionDetails,
      '',
      'A Model Context Protocol server (the official TypeScript SDK) on stdin/stdout: an MCP client',
      '(Claude Desktop, an IDE, the MCP Inspector) starts it as a command. Its tools:',
      '  search {query, stack?, limit?}   ranked nodes: id, name, type, score, and one line of why',
      '                                   (the typed path that reached it, or the matching text)',
      '  get_node {id}                    the document and the edges by type (counts, first neighbours)',
      '  neighbors {id, edgeType?, direction?, limit?}   the nodes one edge away',
      '  ask {question, stack?}           a grounded answer citing node ids (only with --model)',
      'A bad argument or an unknown id is a tool error (isError), never a crash. stdout carries only',
      'MCP messages; what people read goes to stderr. It stops when stdin closes, or on SIGTERM/Ctrl-C.',
      'weft serve offers the same tools over Streamable HTTP at /mcp (behind its API keys).',
    ],
    examples: [
      'weft mcp --db .weft/wordnet',
      'weft mcp --db .weft/wordnet --stack bm25 --model openai:gpt-4o-mini   # adds the ask tool',
      `claude_desktop_config.json: {"mcpServers": {"weft": {"command": "weft", "args": ["mcp", "--db", "/abs/path/store"]}}}`,
      'npx @modelcontextprotocol/inspector --cli weft mcp --db .weft/wordnet --method tools/list',
    ],
    options: {
      db: { type: 'string' },
      stack: { type: 'string' },
      ...modelOptions,
    },
    async run(args, io) {
      if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
      const db = path.resolve(io.cwd, requiredOption(args, 'db'));
      const stack = stringOption(args, 'stack') ?? deps.registry.defaultName;
      if (!deps.registry.has(stack))
        throw new UsageError(
          `unknown stack "${stack}" (stacks: ${deps.registry
            .list()
            .map((e) => e.name)
            .join(', ')})`,
        );
      const createOptions = await stackCreateOptions(parseModelOptions(args, { cwd: io.cwd }));
      // Loaded here, not at the top, so that `weft --help` does not load the SDK and the engines.
      const [{ createWeftMcpServer }, { StdioServerTransport }] = await Promise.all([
        import('@weft/agent-tools'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
      ]);
      const store = await deps.openStore(db);
      try {
        const server = createWeftMcpServer(store, { stack, registry: deps.registry, createOptions });
        const stale = await staleArtifactsWarning(store.directory, store.manifest);
        if (stale) io.stderr.write(`weft mcp: warning: ${stale}\n`);
        const stdin = streams.stdin ?? process.stdin;
        let stop!: (why: string) => void;
        const stopped = new Promise<string>((resolve) => {
          stop = resolve;
        });
        const onEnd = () => stop('stdin closed');
        const onSignal = (signal: NodeJS.Signals) => stop(signal);
        stdin.once('end', onEnd);
        stdin.once('close', onEnd);
        process.once('SIGTERM', onSignal);
        process.once('SIGINT', onSignal);
        const transport = new StdioServerTransport(stdin, io.stdout as Writable);
        const closed = new Promise<string>((resolve) => {
          transport.onclose = () => resolve('transport closed');
        });
        await server.connect(transport);
        io.stderr.write(
          `weft mcp: ${db} (${store.manifest.counts.nodes} nodes) over stdio; tools: search, get_node, neighbors${createOptions.languageModel ? ', ask' : ''}; default stack ${stack}\n`,
        );
        const why = await Promise.race([stopped, closed]).finally(() => {
          stdin.off('end', onEnd);
          stdin.off('close', onEnd);
          process.off('SIGTERM', onSignal);
          process.off('SIGINT', onSignal);
        });
        await server.close();
        io.stderr.write(`weft mcp: stopped (${why})\n`);
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const mcpCommand = createMcpCommand();

import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Test support (not a test): a `server-process.ts` child and what it printed. */
export interface ServerChild {
  readonly url: string;
  readonly child: ChildProcess;
  /** JSON lines printed after the first. */
  readonly lines: unknown[];
  readonly stderr: () => string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

const script = fileURLToPath(new URL('./server-process.ts', import.meta.url));

export async function spawnServer(args: readonly string[]): Promise<ServerChild> {
  const child = spawn(
    process.execPath,
    ['--conditions=@weft/source', '--disable-warning=ExperimentalWarning', script, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LANCEDB_LOG: 'error', RUST_LOG: 'error' } },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines: unknown[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const reader = createInterface({ input: child.stdout! });
    reader.on('line', (line) => {
      const parsed = JSON.parse(line) as { url?: string };
      if (parsed.url) resolve(parsed.url);
      else lines.push(parsed);
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${stderr}`)));
  });
  return { url, child, lines, stderr: () => stderr, exited };
}

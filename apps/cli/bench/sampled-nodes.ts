import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

/**
 * Every 997th node of a bundle (from the 6th), up to `count`: nodes spread over the whole file, whose
 * names the benches ask for. Bundles keep their nodes plain or gzipped (the shared WordNet bundle has
 * nodes.jsonl.gz only).
 */
export async function sampledBundleNodes(
  bundle: string,
  count: number,
): Promise<{ id: string; name: string }[]> {
  const nodesFile = path.join(bundle, 'nodes.jsonl');
  const lines = createInterface({
    input: existsSync(nodesFile)
      ? createReadStream(nodesFile)
      : createReadStream(`${nodesFile}.gz`).pipe(createGunzip()),
  });
  const nodes: { id: string; name: string }[] = [];
  let line = 0;
  for await (const text of lines) {
    if (nodes.length >= count) break;
    if (line++ % 997 !== 5) continue;
    const { id, name } = JSON.parse(text) as { id: string; name: string };
    nodes.push({ id, name });
  }
  lines.close();
  return nodes;
}

/** A node's name as a bench asks for it: its first three words. */
export const nameQuery = (name: string): string => name.split(' ').slice(0, 3).join(' ');

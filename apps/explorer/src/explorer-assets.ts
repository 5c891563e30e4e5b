import { readFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import { fileURLToPath } from 'node:url';

/** A file of the explorer as the server sends it. */
export interface ExplorerAsset {
  readonly body: string | Uint8Array;
  readonly contentType: string;
}

const publicDirectory = new URL('../public/', import.meta.url);
const appDirectory = new URL('./app/', import.meta.url);

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};
const javascript = 'text/javascript; charset=utf-8';

/** Only plain file names: no folders, no `..`, nothing a URL could use to leave the two folders. */
const safeName = /^[a-z0-9][a-z0-9-]*\.[a-z]+$/;

/**
 * The explorer's files by URL path, for `weft serve`: `/` (the page), its stylesheet, `/app/*.ts`
 * (the page's modules: TypeScript sources with their types stripped, as Node runs the rest of the
 * repository — no build step, so a checkout serves what it holds), and `/vendor/cytoscape.mjs`
 * (Cytoscape.js's ES module from its npm package) and `/vendor/format-percent.js` (the metric rounding of
 * `@weft/eval`, so that the eval browser rounds as `weft eval` does). Files are read once and kept.
 */
export function explorerAssets(): (urlPath: string) => Promise<ExplorerAsset | undefined> {
  const cache = new Map<string, Promise<ExplorerAsset | undefined>>();
  const load = async (urlPath: string): Promise<ExplorerAsset | undefined> => {
    if (urlPath === '/vendor/cytoscape.mjs') {
      const file = fileURLToPath(import.meta.resolve('cytoscape/dist/cytoscape.esm.min.mjs'));
      return { body: await readFile(file, 'utf8'), contentType: javascript };
    }
    if (urlPath === '/vendor/format-percent.js') {
      // The one rounding of metrics, shared with weft eval: @weft/eval's dependency-free source.
      const file = fileURLToPath(import.meta.resolve('@weft/eval/format-percent'));
      const source = await readFile(file, 'utf8');
      return {
        body: file.endsWith('.ts') ? stripTypeScriptTypes(source) : source,
        contentType: javascript,
      };
    }
    const page = urlPath === '/' ? 'index.html' : urlPath.slice(1);
    if (safeName.test(page)) {
      const extension = page.slice(page.lastIndexOf('.'));
      const type = contentTypes[extension];
      if (!type) return undefined;
      const body = await readIfExists(new URL(page, publicDirectory));
      return body === undefined ? undefined : { body, contentType: type };
    }
    const module = urlPath.match(/^\/app\/([^/]+\.ts)$/)?.[1];
    if (module && safeName.test(module) && !module.endsWith('.test.ts')) {
      const source = await readIfExists(new URL(module, appDirectory));
      if (source === undefined) return undefined;
      // Relative imports keep their `.ts`: the browser asks for /app/<name>.ts, which lands here.
      return { body: stripTypeScriptTypes(source.toString('utf8')), contentType: javascript };
    }
    return undefined;
  };
  return (urlPath) => {
    let asset = cache.get(urlPath);
    if (!asset) {
      asset = load(urlPath);
      cache.set(urlPath, asset);
      // Unknown paths are not remembered: the cache holds only the explorer's own files.
      asset.then(
        (found) => {
          if (!found) cache.delete(urlPath);
        },
        () => cache.delete(urlPath),
      );
    }
    return asset;
  };
}

async function readIfExists(url: URL): Promise<Buffer | undefined> {
  try {
    return await readFile(url);
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === 'ENOENT' ||
      (error as NodeJS.ErrnoException).code === 'EISDIR'
    )
      return undefined;
    throw error;
  }
}

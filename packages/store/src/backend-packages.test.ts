import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WeftError } from '@weft/kit';
import { toySkb } from '@weft/core/test';
import { writeBundle } from '@weft/skb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type BackendLoader,
  isMissingPackage,
  loadBackendPackage,
  MissingBackendError,
  setBackendLoader,
} from './backend-packages.ts';
import { buildStore } from './build-store.ts';
import { resolveGraphBackend } from './graph-backends.ts';
import { MissingBackendError as Exported } from './index.ts';
import { openStore } from './open-store.ts';
import { manifestFileName } from './store-directory.ts';

let root: string;
let bundle: string;
/** The loader of the workspace: `import()`, every engine package installed (dev dependencies). */
let realLoader: BackendLoader;
const loaded: string[] = [];

/**
 * A loader for which `missing` are not installed: importing one fails as Node fails on a package
 * that is not there, from a module outside the workspace that imports it. The rest load for real.
 */
function without(...missing: string[]): BackendLoader {
  return async (specifier) => {
    if (!missing.includes(specifier)) return realLoader(specifier);
    const importer = join(root, `imports-${specifier.replace(/\W/g, '_')}.mjs`);
    await writeFile(importer, `export * from '${specifier}';\n`);
    return import(/* @vite-ignore */ pathToFileURL(importer).href);
  };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'weft-store-peers-'));
  bundle = join(root, 'bundle');
  await writeBundle(bundle, toySkb());
  realLoader = setBackendLoader();
});
afterEach(() => {
  setBackendLoader(realLoader);
  loaded.length = 0;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function recording(loader: BackendLoader): BackendLoader {
  return (specifier) => {
    loaded.push(specifier);
    return loader(specifier);
  };
}

describe('engine packages are imported when a store names them', () => {
  it('builds and opens a Kùzu + LanceDB store, importing those two packages and no other', async () => {
    setBackendLoader(recording(realLoader));
    const directory = join(root, 'default');
    await buildStore({ bundle, directory, relationFields: false });
    const store = await openStore(directory);
    try {
      expect(store.manifest.graph.provider).toBe('kuzu');
      expect(store.manifest.indexes?.text.provider).toBe('lancedb');
      expect((await store.graph.doGetNodes(['p:q2']))[0]?.name).toBe('Leica Q2');
      const [hits] = await store.context.text.doSearch({ queries: ['Leica Q2'], limit: 1 });
      expect(hits?.[0]?.id).toBe('p:q2');
    } finally {
      await store.close();
    }
    expect(new Set(loaded)).toEqual(new Set(['@weft/graph-kuzu', '@weft/index-lancedb']));
  });

  it("names the package to install when the manifest's graph engine is missing", async () => {
    const directory = join(root, 'ladybug-manifest');
    await buildStore({ bundle, directory, relationFields: false });
    const manifest = JSON.parse(await readFile(join(directory, manifestFileName), 'utf8'));
    // A store built on LadybugDB, as far as opening it goes (LadybugDB is never loaded here: a
    // process must not load both Kùzu's and LadybugDB's native modules).
    await writeFile(
      join(directory, manifestFileName),
      JSON.stringify({ ...manifest, graph: { ...manifest.graph, provider: 'ladybug' } }),
    );
    setBackendLoader(recording(without('@weft/graph-ladybug')));
    const opening = openStore(directory);
    await expect(opening).rejects.toBeInstanceOf(MissingBackendError);
    await expect(opening).rejects.toBeInstanceOf(WeftError);
    await expect(opening).rejects.toMatchObject({
      name: 'MissingBackendError',
      code: 'WEFT_UNSUPPORTED',
      packageName: '@weft/graph-ladybug',
      engine: 'LadybugDB',
      message:
        "this store's graph is LadybugDB: install @weft/graph-ladybug (npm install @weft/graph-ladybug)",
    });
    expect(loaded).toEqual(['@weft/graph-ladybug']);
    // Node's own error is kept as the cause.
    const error: unknown = await opening.catch((caught: unknown) => caught);
    expect(((error as Error).cause as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
  });

  it('names the package to install when the index engine is missing', async () => {
    const directory = join(root, 'no-lancedb');
    await buildStore({ bundle, directory, relationFields: false });
    setBackendLoader(without('@weft/index-lancedb'));
    await expect(openStore(directory)).rejects.toThrow(
      "this store's indexes are LanceDB: install @weft/index-lancedb (npm install @weft/index-lancedb)",
    );
  });

  it('names the package when buildStore is asked for an engine that is not installed', async () => {
    setBackendLoader(without('@weft/graph-postgres'));
    await expect(
      buildStore({ bundle, directory: join(root, 'pg'), graph: 'postgres://127.0.0.1:1/none' }),
    ).rejects.toThrow(
      "this store's graph is PostgreSQL: install @weft/graph-postgres (npm install @weft/graph-postgres)",
    );
  });

  it('rethrows other failures as they are: a dependency of the package missing, a module that throws', async () => {
    const dependencyMissing = Object.assign(
      new Error(
        "Cannot find package '@ladybugdb/core' imported from /x/node_modules/@weft/graph-ladybug/dist/index.js",
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    setBackendLoader(() => Promise.reject(dependencyMissing));
    await expect(resolveGraphBackend('ladybug')).rejects.toBe(dependencyMissing);
    const broken = new Error('native module did not load');
    setBackendLoader(() => Promise.reject(broken));
    await expect(resolveGraphBackend('kuzu')).rejects.toBe(broken);
  });
});

describe('isMissingPackage', () => {
  it('is true only for a not-found error that names the package itself', () => {
    const notFound = (message: string, code = 'ERR_MODULE_NOT_FOUND') =>
      Object.assign(new Error(message), { code });
    expect(
      isMissingPackage(
        notFound("Cannot find package '@weft/graph-kuzu' imported from /a.js"),
        '@weft/graph-kuzu',
      ),
    ).toBe(true);
    expect(
      isMissingPackage(
        notFound("Cannot find module '@weft/graph-kuzu'\nRequire stack:", 'MODULE_NOT_FOUND'),
        '@weft/graph-kuzu',
      ),
    ).toBe(true);
    expect(
      isMissingPackage(notFound("Cannot find package 'kuzu' imported from /a.js"), '@weft/graph-kuzu'),
    ).toBe(false);
    expect(
      isMissingPackage(
        notFound("Cannot find module '/n/node_modules/@weft/graph-kuzu/dist/index.js' imported from /a.js"),
        '@weft/graph-kuzu',
      ),
    ).toBe(false);
    expect(isMissingPackage(new Error("Cannot find package '@weft/graph-kuzu'"), '@weft/graph-kuzu')).toBe(
      false,
    );
    expect(isMissingPackage('nope', '@weft/graph-kuzu')).toBe(false);
  });

  it('loadBackendPackage hands back the module when it is there', async () => {
    const module = (await loadBackendPackage({
      kind: 'graph',
      engine: 'Kùzu',
      packageName: '@weft/graph-kuzu',
    })) as { kuzuBackend?: { id: string } };
    expect(module.kuzuBackend?.id).toBe('kuzu');
  });

  it('is exported by @weft/store', () => {
    expect(Exported).toBe(MissingBackendError);
  });
});

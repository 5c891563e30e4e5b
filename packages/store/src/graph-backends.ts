import { WeftError } from '@weft/kit';
import type { GraphBackendV1 } from '@weft/spec';
import { type BackendPackage, loadBackendPackage } from './backend-packages.ts';

/** A `--graph` value taken apart: the backend id and what follows it. */
export interface GraphBackendChoice {
  readonly id: string;
  /** e.g. the URL of `postgres://…`; absent for embedded backends. */
  readonly target?: string;
}

/** A built-in graph backend: its package, and the backend among that package's exports. */
interface BuiltInGraphBackend extends BackendPackage {
  readonly backend: (module: unknown) => GraphBackendV1;
}

/**
 * The backends `@weft/store` knows without being told. Their packages are optional peer
 * dependencies, imported on first use: installing `@weft/store` installs no engine, and a process
 * never loads both `kuzu` and `@ladybugdb/core` (their native modules share symbols, and such a
 * process segfaults when it exits), so a store on one engine never loads the other's module.
 */
const builtInBackends: Readonly<Record<string, BuiltInGraphBackend>> = {
  kuzu: {
    kind: 'graph',
    engine: 'Kùzu',
    packageName: '@weft/graph-kuzu',
    backend: (module) => (module as typeof import('@weft/graph-kuzu')).kuzuBackend,
  },
  ladybug: {
    kind: 'graph',
    engine: 'LadybugDB',
    packageName: '@weft/graph-ladybug',
    backend: (module) => (module as typeof import('@weft/graph-ladybug')).ladybugBackend,
  },
  postgres: {
    kind: 'graph',
    engine: 'PostgreSQL',
    packageName: '@weft/graph-postgres',
    backend: (module) => (module as typeof import('@weft/graph-postgres')).postgresBackend,
  },
};

/**
 * The graph backend of `weft ingest` without `--graph`: Kùzu, which answered faster than LadybugDB
 * (p50, first query) in every run of `apps/cli/bench/graph-engines.ts`; LadybugDB built faster and
 * smaller (docs/scaling.md).
 */
export const defaultGraphBackend = 'kuzu';

/** The ids of the built-in graph backends. */
export const builtInGraphBackends: readonly string[] = Object.keys(builtInBackends);

/**
 * Parses a backend spec: an id (`kuzu`, `ladybug`), `<id>:<target>`, or a URL whose scheme names
 * the backend (`postgres://…`, `postgresql://…` → `postgres` with the URL as target).
 */
export function parseGraphBackend(spec: string): GraphBackendChoice {
  const trimmed = spec.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return { id: 'postgres', target: trimmed };
  const colon = trimmed.indexOf(':');
  if (colon < 0) return { id: trimmed };
  return { id: trimmed.slice(0, colon), target: trimmed.slice(colon + 1) };
}

/**
 * The backend of `id`: one of `backends` (given by the caller) when it has that id, else a
 * built-in one, its package imported now (`MissingBackendError` when it is not installed). Unknown
 * ids are refused with the list of known ones.
 */
export async function resolveGraphBackend(
  id: string,
  backends: readonly GraphBackendV1[] = [],
): Promise<GraphBackendV1> {
  const given = backends.find((backend) => backend.id === id);
  if (given) return given;
  const builtIn = Object.hasOwn(builtInBackends, id) ? builtInBackends[id] : undefined;
  if (!builtIn) {
    const known = [...new Set([...backends.map((b) => b.id), ...builtInGraphBackends])].join(', ');
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: `no graph backend '${id}' (known: ${known})`,
    });
  }
  return builtIn.backend(await loadBackendPackage(builtIn));
}

import { isAbsolute, resolve } from 'node:path';
import { WeftError } from '@weft/kit';
import type { IndexBackendV1, IndexStorageOptions } from '@weft/spec';
import { type BackendPackage, loadBackendPackage } from './backend-packages.ts';

/** A built-in index backend: its package, and the backend among that package's exports. */
interface BuiltInIndexBackend extends BackendPackage {
  readonly backend: (module: unknown) => IndexBackendV1;
}

/** The LanceDB package: an optional peer dependency, imported when a store's indexes need it. */
export const lancePackage: BackendPackage = {
  kind: 'indexes',
  engine: 'LanceDB',
  packageName: '@weft/index-lancedb',
};

/**
 * The index backends `@weft/store` knows without being told. Their packages are optional peer
 * dependencies, imported on first use (LanceDB's native module is not loaded by a process that
 * never opens an index).
 */
const builtInBackends: Readonly<Record<string, BuiltInIndexBackend>> = {
  lancedb: {
    ...lancePackage,
    backend: (module) => (module as typeof import('@weft/index-lancedb')).lanceIndexBackend,
  },
};

/** The index backend of every store today. */
export const defaultIndexBackend = 'lancedb';

/**
 * The backend of `id`: one of `backends` (given by the caller) when it has that id, else a
 * built-in one, its package imported now (`MissingBackendError` when it is not installed). Unknown
 * ids are refused with the list of known ones.
 */
export async function resolveIndexBackend(
  id: string,
  backends: readonly IndexBackendV1[] = [],
): Promise<IndexBackendV1> {
  const given = backends.find((backend) => backend.id === id);
  if (given) return given;
  const builtIn = Object.hasOwn(builtInBackends, id) ? builtInBackends[id] : undefined;
  if (!builtIn) {
    const known = [...new Set([...backends.map((b) => b.id), ...Object.keys(builtInBackends)])].join(', ');
    throw new WeftError({ code: 'WEFT_UNSUPPORTED', message: `no index backend '${id}' (known: ${known})` });
  }
  return builtIn.backend(await loadBackendPackage(builtIn));
}

/** S3 bucket names: 3–63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const bucketName = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function badIndexes(spec: string, reason: string): WeftError {
  return new WeftError({
    code: 'WEFT_BAD_INPUT',
    message: `--indexes ${spec}: ${reason} (give a folder or s3://bucket/prefix)`,
  });
}

/**
 * Where `--indexes` puts a store's indexes: an `s3://bucket[/prefix]` URL as given (without a
 * trailing slash), or a folder made absolute against `cwd`. Anything else is refused with the reason.
 */
export function parseIndexesLocation(spec: string, cwd = process.cwd()): string {
  const trimmed = spec.trim();
  if (trimmed === '') throw badIndexes(spec, 'empty');
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed)?.[1];
  if (scheme === undefined) return isAbsolute(trimmed) ? trimmed : resolve(cwd, trimmed);
  if (scheme.toLowerCase() !== 's3') throw badIndexes(spec, `${scheme}:// object storage is not supported`);
  const rest = trimmed.slice('s3://'.length).replace(/\/+$/, '');
  const [bucket = '', ...prefix] = rest.split('/');
  if (bucket === '') throw badIndexes(spec, 'no bucket named');
  if (!bucketName.test(bucket)) throw badIndexes(spec, `"${bucket}" is not a valid S3 bucket name`);
  if (prefix.some((part) => part === '' || part === '.' || part === '..'))
    throw badIndexes(spec, 'the prefix has an empty, "." or ".." segment');
  return `s3://${[bucket, ...prefix].join('/')}`;
}

/**
 * `key=value` pairs of `--indexes-option` as storage options. Keys are lower-cased (LanceDB's are
 * case-insensitive); a pair without `=` or with an empty key is refused — without its value, which
 * may be a secret.
 */
export function parseStorageOptions(pairs: readonly string[]): Record<string, string> {
  const options: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    const key = equals < 0 ? '' : pair.slice(0, equals).trim().toLowerCase();
    if (key === '')
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `--indexes-option takes key=value (e.g. endpoint=http://127.0.0.1:9000); got one without a key${equals < 0 ? ' or =' : ''}`,
      });
    options[key] = pair.slice(equals + 1);
  }
  return options;
}

/** The storage options a manifest may record: all but the backend's secrets. */
export function recordableStorageOptions(
  backend: IndexBackendV1,
  options: IndexStorageOptions | undefined,
): Record<string, string> | undefined {
  const kept = Object.entries(options ?? {}).filter(([key]) => !backend.secretOption(key));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

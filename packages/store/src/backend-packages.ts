import { WeftError } from '@weft/kit';

/**
 * Imports an engine package by name. `@weft/store` depends on no engine: the graph and index
 * packages are optional peer dependencies, imported when a store names them (see `loadBackendPackage`).
 */
export type BackendLoader = (specifier: string) => Promise<unknown>;

const importPackage: BackendLoader = (specifier) => import(specifier);

let loadBackend: BackendLoader = importPackage;

/**
 * Replaces how engine packages are imported (tests: a package that is missing, a record of what was
 * loaded); without an argument, restores `import()`. Returns the loader it replaced.
 */
export function setBackendLoader(loader: BackendLoader = importPackage): BackendLoader {
  const previous = loadBackend;
  loadBackend = loader;
  return previous;
}

/** An engine package: which part of a store it serves, the engine's name, the npm package. */
export interface BackendPackage {
  readonly kind: 'graph' | 'indexes';
  /** As people call it, e.g. `LadybugDB`. */
  readonly engine: string;
  /** e.g. `@weft/graph-ladybug`. */
  readonly packageName: string;
}

/**
 * A store (or `buildStore`'s choice) needs an engine whose package is not installed. The message
 * says which package to install; `packageName` holds it.
 */
export class MissingBackendError extends WeftError {
  readonly kind: BackendPackage['kind'];
  readonly engine: string;
  readonly packageName: string;

  constructor(backend: BackendPackage, cause?: unknown) {
    const { kind, engine, packageName } = backend;
    super({
      code: 'WEFT_UNSUPPORTED',
      message: `this store's ${kind} ${kind === 'graph' ? 'is' : 'are'} ${engine}: install ${packageName} (npm install ${packageName})`,
      cause,
      details: { kind, engine, package: packageName },
    });
    this.name = 'MissingBackendError';
    this.kind = kind;
    this.engine = engine;
    this.packageName = packageName;
  }
}

/**
 * Whether `error` says that `specifier` itself cannot be found (ESM `ERR_MODULE_NOT_FOUND` or CJS
 * `MODULE_NOT_FOUND` naming it), not a file inside it or one of its own dependencies.
 */
export function isMissingPackage(error: unknown, specifier: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return error.message.includes(`'${specifier}'`);
}

/**
 * The module of an engine package, imported now. A package that is not installed is refused with a
 * `MissingBackendError`; any other failure (one of its own dependencies missing, a native module
 * that does not load) is thrown as it is.
 */
export async function loadBackendPackage(backend: BackendPackage): Promise<unknown> {
  try {
    return await loadBackend(backend.packageName);
  } catch (error) {
    if (isMissingPackage(error, backend.packageName)) throw new MissingBackendError(backend, error);
    throw error;
  }
}

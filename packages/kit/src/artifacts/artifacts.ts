import type { ArtifactRefV1, ArtifactStore } from '@weft/spec';

/**
 * How every trained part is stored: what it is, the format version its reader expects, when it was
 * fitted, and the value. Readers never guess at a bare JSON object.
 */
export interface ArtifactEnvelope<T> {
  /** The component that reads it, e.g. `reranker-linear`. */
  readonly kind: string;
  /** Bumped by the component whenever the stored shape or its meaning changes. */
  readonly version: number;
  readonly createdAt: string;
  readonly value: T;
}

/** What `loadArtifact` found. Anything but `loaded` has a `message` that says what to do. */
export type ArtifactLoad<T> =
  | { readonly status: 'loaded'; readonly value: T; readonly createdAt: string }
  | { readonly status: 'missing'; readonly message: string }
  | { readonly status: 'stale'; readonly message: string; readonly found: { kind: string; version: number } };

/**
 * The one naming scheme of artifacts: `<owner>.<component>`, e.g. `default.reranker-linear`, where the
 * owner is the stack or the shared training step that writes it. Names are what `weft info` lists,
 * so a stack's parts sort together.
 */
export function artifactName(stack: string, component: string): string {
  return `${stack}.${component}`;
}

export function artifactEnvelope<T>(kind: string, version: number, value: T): ArtifactEnvelope<T> {
  return { kind, version, createdAt: new Date().toISOString(), value };
}

function isEnvelope(value: unknown): value is ArtifactEnvelope<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ArtifactEnvelope<unknown>).kind === 'string' &&
    typeof (value as ArtifactEnvelope<unknown>).version === 'number' &&
    'value' in value
  );
}

/**
 * Reads a trained part and says exactly what is wrong when it cannot be used: no artifact store, no
 * such artifact (not trained), or one written for another component or format version (trained by
 * an older Weft: re-run `weft train`). Stages turn anything but `loaded` into a trace warning.
 */
export async function loadArtifact<T>(
  artifacts: ArtifactStore | undefined,
  artifact: string | ArtifactRefV1,
  expected: { readonly kind: string; readonly version: number },
): Promise<ArtifactLoad<T>> {
  const name = typeof artifact === 'string' ? artifact : artifact.name;
  if (!artifacts) {
    return {
      status: 'missing',
      message: `no artifact store: "${name}" cannot be loaded; untrained defaults apply`,
    };
  }
  let stored = await artifacts.get(name);
  // A store trained before the artifact was renamed keeps it under a former name.
  for (const former of typeof artifact === 'string' ? [] : (artifact.formerNames ?? [])) {
    if (stored !== undefined) break;
    stored = await artifacts.get(former);
  }
  if (stored === undefined) {
    return {
      status: 'missing',
      message: `artifact "${name}" not found: the stack is untrained (run weft train); untrained defaults apply`,
    };
  }
  if (!isEnvelope(stored)) {
    return {
      status: 'stale',
      found: { kind: 'unknown', version: 0 },
      message: `artifact "${name}" predates versioned artifacts; re-run weft train (untrained defaults apply)`,
    };
  }
  if (stored.kind !== expected.kind || stored.version !== expected.version) {
    return {
      status: 'stale',
      found: { kind: stored.kind, version: stored.version },
      message: `artifact "${name}" is ${stored.kind} v${stored.version}, this reader needs ${expected.kind} v${expected.version}; re-run weft train (untrained defaults apply)`,
    };
  }
  return { status: 'loaded', value: stored.value as T, createdAt: stored.createdAt };
}

/** The load and save of one kind of trained part: the one way artifacts are written and read. */
export interface ArtifactDefinition<T> {
  readonly kind: string;
  /** Bumped whenever the stored shape or its meaning changes, so older stores say "stale". */
  readonly version: number;
  /** The reference of this kind stored under `name` (and, before a rename, under `formerNames`). */
  ref(name: string, formerNames?: readonly string[]): ArtifactRefV1;
  /** Reads the artifact and says why it cannot be used (see `loadArtifact`). */
  load(artifacts: ArtifactStore | undefined, artifact: string | ArtifactRefV1): Promise<ArtifactLoad<T>>;
  /** Writes `value` in a versioned envelope under the artifact's name. */
  save(artifacts: ArtifactStore, artifact: string | ArtifactRefV1, value: T): Promise<void>;
}

export interface DefineArtifactOptions<T> {
  readonly kind: string;
  readonly version: number;
  /**
   * A check beyond kind and version: a reason the loaded value cannot be used by this reader (e.g.
   * fitted on other features than it computes), or undefined when it can.
   */
  readonly check?: (value: T) => string | undefined;
}

/** Declares a kind of trained part: `load` and `save` with versioned envelopes. */
export function defineArtifact<T>(options: DefineArtifactOptions<T>): ArtifactDefinition<T> {
  const { kind, version, check } = options;
  const nameOf = (artifact: string | ArtifactRefV1) =>
    typeof artifact === 'string' ? artifact : artifact.name;
  return {
    kind,
    version,
    ref: (name, formerNames) => ({ name, kind, version, ...(formerNames?.length ? { formerNames } : {}) }),
    async load(artifacts, artifact) {
      const loaded = await loadArtifact<T>(artifacts, artifact, { kind, version });
      if (loaded.status !== 'loaded' || !check) return loaded;
      const problem = check(loaded.value);
      if (problem === undefined) return loaded;
      return {
        status: 'stale',
        found: { kind, version },
        message: `artifact "${nameOf(artifact)}" ${problem}; re-run weft train (untrained defaults apply)`,
      };
    },
    async save(artifacts, artifact, value) {
      await artifacts.put(nameOf(artifact), artifactEnvelope(kind, version, value));
    },
  };
}

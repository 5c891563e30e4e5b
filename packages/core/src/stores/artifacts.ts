import type { ArtifactStore } from '@weft/spec';

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
 * The one naming scheme of artifacts: `<stack>.<component>`, e.g. `default.reranker-linear`. Names
 * are what `weft info` lists, so a stack's parts sort together.
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
  name: string,
  expected: { readonly kind: string; readonly version: number },
): Promise<ArtifactLoad<T>> {
  if (!artifacts) {
    return {
      status: 'missing',
      message: `no artifact store: "${name}" cannot be loaded; untrained defaults apply`,
    };
  }
  const stored = await artifacts.get(name);
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

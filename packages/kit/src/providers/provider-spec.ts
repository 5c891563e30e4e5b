import { WeftError } from '../errors/weft-error.ts';

/**
 * The `<baseURL>:<model>` tail of an `openai-compatible:` model or embedder spec, split:
 * `http://host:8080/v1:model` → base URL and model. A `:digits` right after the host is always the
 * port (a regular expression would let `http://host:8080/v1` read as host `host`, model `8080/v1`);
 * the path runs to the next ':', and the model (which may hold ':') follows it.
 */
export function splitBaseUrlSpec(rest: string): { baseURL: string; model: string } | undefined {
  const scheme = /^https?:\/\//.exec(rest);
  if (!scheme) return undefined;
  let i = scheme[0].length;
  const hostEnd = rest.slice(i).search(/[/:\s]/);
  if (hostEnd <= 0) return undefined;
  i += hostEnd;
  const port = /^:\d+(?=[/:]|$)/.exec(rest.slice(i));
  if (port) i += port[0].length;
  const colon = rest.indexOf(':', i);
  if (colon < 0) return undefined;
  const baseURL = rest.slice(0, colon).replace(/\/$/, '');
  const model = rest.slice(colon + 1);
  if (!model.trim() || /\s/.test(baseURL)) return undefined;
  return { baseURL, model };
}

/**
 * Loads a provider package that Weft keeps optional (`@ai-sdk/openai`, …) through `importer`, which
 * must be `(name) => import(name)` written in the calling package: a bare specifier resolves from
 * the module that imports it, and only the caller lists the provider among its dependencies. When
 * it is missing, a `WEFT_UNSUPPORTED` error says which package `what` (e.g. "this model") needs.
 */
export async function importOptionalProvider<T>(
  name: string,
  what: string,
  importer: (name: string) => Promise<unknown>,
): Promise<T> {
  try {
    return (await importer(name)) as T;
  } catch (error) {
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: `${what} needs the optional package ${name}; install it next to weft (e.g. pnpm add ${name})`,
      cause: error,
    });
  }
}

/** A parsed `<provider>:<model>` spec: a provider by name, or an OpenAI-compatible server. */
export type ProviderSpec<P extends string> =
  | { readonly kind: P; readonly model: string }
  | { readonly kind: 'openai-compatible'; readonly baseURL: string; readonly model: string };

export interface ParseProviderSpecOptions<P extends string> {
  /** What the spec names, for messages and `details.field`: `model`, `embedder`. */
  readonly field: string;
  /** The providers taken by name (`openai`, `ollama`, …); `openai-compatible` is always taken. */
  readonly providers: readonly P[];
  /** The accepted syntax, quoted in every message. */
  readonly syntax: string;
}

/**
 * Parses `<provider>:<model>` (`openai:gpt-4o-mini`) or `openai-compatible:<baseURL>:<model>`
 * (`openai-compatible:http://127.0.0.1:8080/v1:llama-3.1-8b`; the model is what follows the URL's
 * path and may itself hold ':'): the one syntax of `--model` and `--embedder`.
 */
export function parseProviderSpec<P extends string>(
  spec: string,
  options: ParseProviderSpecOptions<P>,
): ProviderSpec<P> {
  const bad = (why: string) =>
    new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `bad ${options.field} "${spec}": ${why} (expected ${options.syntax})`,
      details: { field: options.field },
    });
  const value = spec.trim();
  const colon = value.indexOf(':');
  const provider = colon < 0 ? value : value.slice(0, colon);
  const rest = colon < 0 ? '' : value.slice(colon + 1);
  if (provider === 'openai-compatible') {
    const split = splitBaseUrlSpec(rest);
    if (!split) throw bad('openai-compatible needs <http(s) base URL>:<model>');
    return { kind: 'openai-compatible', ...split };
  }
  if ((options.providers as readonly string[]).includes(provider)) {
    if (!rest.trim()) throw bad(`${provider} needs a model name`);
    return { kind: provider as P, model: rest.trim() };
  }
  throw bad(provider ? `unknown ${options.field} provider "${provider}"` : 'empty');
}

import { WeftError } from '@weft/kit';

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

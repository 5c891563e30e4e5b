import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { WeftError } from '@weft/core';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.ts';

/** What a key allows: `read` (query, ask, nodes, stacks, the explorer) and `write` (changing the store). */
export type ApiScope = 'read' | 'write';

export const apiScopes: readonly ApiScope[] = ['read', 'write'];

/** The shortest key accepted: shorter ones can be guessed. */
export const minApiKeyLength = 16;

/** The variable that names the key file when `weft serve` gets no `--api-key-file`. */
export const apiKeyFileVariable = 'WEFT_API_KEY_FILE';

const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest();

/**
 * The API keys a server accepts, kept only as SHA-256 digests. A presented key is compared with
 * every digest with `timingSafeEqual` (equal lengths by construction), all of them each time, so
 * neither the comparison nor which key matched shows in the response time.
 */
export class ApiKeys {
  readonly #keys: readonly { readonly digest: Buffer; readonly scopes: ReadonlySet<ApiScope> }[];

  constructor(keys: readonly { readonly key: string; readonly scopes?: readonly ApiScope[] }[]) {
    if (keys.length === 0) throw new RangeError('ApiKeys needs at least one key');
    this.#keys = keys.map(({ key, scopes }) => ({
      digest: digest(key),
      scopes: new Set(scopes && scopes.length > 0 ? scopes : apiScopes),
    }));
  }

  get size(): number {
    return this.#keys.length;
  }

  /** The scopes of `key`, or undefined when it is none of the keys. */
  verify(key: string): ReadonlySet<ApiScope> | undefined {
    const presented = digest(key);
    let found: ReadonlySet<ApiScope> | undefined;
    for (const entry of this.#keys) {
      if (timingSafeEqual(presented, entry.digest)) found ??= entry.scopes;
    }
    return found;
  }

  /**
   * Reads a key file: one key per line, optionally followed by its scopes (`read`, `write`,
   * separated by spaces or commas; both when none are given); blank lines and `#` comments are
   * skipped. A bad line is `WEFT_BAD_INPUT` named `file:line` — never with the key in the message.
   */
  static parse(text: string, file: string): ApiKeys {
    const keys: { key: string; scopes: ApiScope[] }[] = [];
    const seen = new Set<string>();
    for (const [index, raw] of text.split(/\r?\n/).entries()) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) continue;
      const where = `${file}:${index + 1}`;
      const [key, ...rest] = line.split(/\s+/);
      const scopes = rest
        .join(',')
        .split(',')
        .filter((s) => s !== '');
      const bad = (message: string) =>
        new WeftError({ code: 'WEFT_BAD_INPUT', message: `${where}: ${message}` });
      if (key!.length < minApiKeyLength)
        throw bad(
          `the key is ${key!.length} characters long; use at least ${minApiKeyLength} (e.g. openssl rand -hex 32)`,
        );
      const unknown = scopes.filter((s) => !apiScopes.includes(s as ApiScope));
      if (unknown.length > 0)
        throw bad(
          `unknown scope ${unknown.map((s) => `"${s}"`).join(', ')} (scopes: ${apiScopes.join(', ')})`,
        );
      const hash = digest(key!).toString('hex');
      if (seen.has(hash)) throw bad('the same key is listed twice');
      seen.add(hash);
      keys.push({ key: key!, scopes: scopes as ApiScope[] });
    }
    if (keys.length === 0)
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `${file} holds no key (one key per line, optionally followed by its scopes: read, write)`,
      });
    return new ApiKeys(keys);
  }

  /** `ApiKeys.parse` of a file; a file that cannot be read is `WEFT_BAD_INPUT`. */
  static async read(file: string): Promise<ApiKeys> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `cannot read the API key file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      });
    }
    return ApiKeys.parse(text, file);
  }
}

/** Where the middleware leaves the scopes of the request's key (absent when the server has no keys). */
const scopesKey = 'weftApiScopes';

/** The scopes the request's key grants; every scope when the server has no keys. */
export function requestScopes(c: Context): ReadonlySet<ApiScope> {
  return (c.get(scopesKey as never) as ReadonlySet<ApiScope> | undefined) ?? new Set(apiScopes);
}

const unauthorized = (c: Context, message: string) => {
  c.header('WWW-Authenticate', 'Bearer realm="weft"');
  const error = new ApiError(401, 'WEFT_UNAUTHORIZED', message);
  return c.json(error.body(), 401);
};

/**
 * Requires `Authorization: Bearer <key>` with one of `keys` on every request except `GET /health`
 * (load balancers call it) and the GETs `isPublic` lets through (the explorer's own files, which
 * hold no data: a browser cannot send a key to open a page, and the page asks for one): 401
 * otherwise. The key is never echoed, logged or kept.
 */
export function apiKeyAuth(
  keys: ApiKeys,
  isPublic?: (path: string) => boolean | Promise<boolean>,
): MiddlewareHandler {
  return async (c, next) => {
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && c.req.path === '/health') return next();
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && isPublic && (await isPublic(c.req.path)))
      return next();
    const header = c.req.header('authorization');
    if (!header) return unauthorized(c, 'this server needs an API key: send Authorization: Bearer <key>');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return unauthorized(c, 'the Authorization header must be "Bearer <key>"');
    const scopes = keys.verify(match[1]!);
    if (!scopes) return unauthorized(c, 'the API key is not valid');
    c.set(scopesKey as never, scopes as never);
    return next();
  };
}

/**
 * A route that needs `scope` (e.g. a write endpoint: `app.post('/nodes', requireScope('write'), …)`):
 * 403 when the request's key lacks it. Without keys on the server every request has every scope.
 */
export function requireScope(scope: ApiScope): MiddlewareHandler {
  return async (c, next) => {
    if (!requestScopes(c).has(scope)) {
      const error = new ApiError(403, 'WEFT_FORBIDDEN', `this API key lacks the "${scope}" scope`);
      return c.json(error.body(), 403);
    }
    return next();
  };
}

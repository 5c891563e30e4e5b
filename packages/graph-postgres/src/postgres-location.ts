import { WeftError } from '@weft/kit';

/** Where a graph lives on a server: the connection URL (no password) and the schema holding its tables. */
export interface PostgresLocation {
  /** `postgres://user@host:port/database`, without a password (that comes from `PGPASSWORD` or `~/.pgpass`). */
  readonly url: string;
  readonly schema: string;
}

const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;

/** Parses `postgres://user[:password]@host:port/db[?schema=name]`. */
export function parsePostgresLocation(
  location: string,
): PostgresLocation & { readonly password?: string; readonly schemaGiven: boolean } {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `not a postgres:// URL: ${location}` });
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `not a postgres:// URL: ${location}` });
  const schema = url.searchParams.get('schema');
  if (schema !== null && !schemaName.test(schema))
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `schema "${schema}": use lower-case letters, digits and _ (at most 63), not starting with a digit`,
    });
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.password = '';
  url.searchParams.delete('schema');
  return {
    url: url.toString(),
    schema: schema ?? '',
    schemaGiven: schema !== null,
    ...(password !== undefined ? { password } : {}),
  };
}

/** The location string a manifest stores: the URL without password, with `?schema=`. */
export function formatPostgresLocation(location: PostgresLocation): string {
  const url = new URL(location.url);
  url.searchParams.set('schema', location.schema);
  return url.toString();
}

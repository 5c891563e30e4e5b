// LanceDB's Rust core reads LANCEDB_LOG when the addon loads; default it to errors only so that
// indexing and searching stay quiet unless a user asks for more.
process.env.LANCEDB_LOG ??= 'error';

/** `@lancedb/lancedb`, loaded after the log level is set. */
export const lancedb: typeof import('@lancedb/lancedb') = await import('@lancedb/lancedb');

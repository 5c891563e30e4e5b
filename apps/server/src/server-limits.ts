/**
 * What one request may ask of the server. Every limit answers a way a client could hold memory or
 * time: a large body is refused before it is read, a long query or a long ranking costs search time
 * and response size, and a retrieval that runs past `timeoutMs` is aborted.
 */
export interface ServerLimits {
  /** Largest request body, in bytes (413 beyond). */
  readonly maxBodyBytes: number;
  /** Longest query text, in characters (400 beyond). */
  readonly maxQueryChars: number;
  /** Largest `limit` of `POST /query` (400 beyond). */
  readonly maxLimit: number;
  /** A retrieval still running after this many milliseconds is aborted and answered with 504. */
  readonly timeoutMs: number;
  /** Neighbours listed per edge type and direction by `GET /nodes/:id`, at most. */
  readonly maxNeighboursPerGroup: number;
  /** How long a shutdown waits for in-flight requests before it aborts them. */
  readonly shutdownGraceMs: number;
}

export const defaultLimits: ServerLimits = {
  maxBodyBytes: 16 * 1024,
  maxQueryChars: 1000,
  maxLimit: 100,
  timeoutMs: 30_000,
  maxNeighboursPerGroup: 25,
  shutdownGraceMs: 30_000,
};

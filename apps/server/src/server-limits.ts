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

/** The least time a request keeps for the offline fallback after its model calls are stopped. */
export const minFallbackMarginMs = 1_000;
/** The least time left to the model: a request limit that leaves less cannot use a model. */
export const minModelTimeMs = 250;

/**
 * The time the fallback keeps within one request: a quarter of the request's limit, at least
 * `minFallbackMarginMs`. Model calls are stopped that long before the request would be aborted, so
 * that the stages fall back (offline plan, offline ranking, the evidence without an answer) and the
 * request is answered rather than timed out.
 */
export function fallbackMarginMs(requestTimeoutMs: number): number {
  return Math.max(minFallbackMarginMs, Math.round(requestTimeoutMs / 4));
}

/**
 * How long one model call may take under a request limit of `requestTimeoutMs`: the request's limit
 * less the fallback margin, or less when `requestedMs` (`--model-timeout`) asks for less. Throws a
 * `RangeError` that says what to change when the settings cannot work: a request limit that leaves
 * the model (almost) no time, or a model limit the request would cut before the fallback could run.
 */
export function modelCallTimeoutMs(requestTimeoutMs: number, requestedMs?: number): number {
  const margin = fallbackMarginMs(requestTimeoutMs);
  const available = requestTimeoutMs - margin;
  if (available < minModelTimeMs)
    throw new RangeError(
      `a request limit of ${requestTimeoutMs} ms leaves a model no time: ${margin} ms are kept for the offline fallback, so a server with a model needs --timeout-ms ${minModelTimeMs + minFallbackMarginMs} or more`,
    );
  if (requestedMs === undefined) return available;
  if (requestedMs > available)
    throw new RangeError(
      `--model-timeout ${requestedMs} does not fit in --timeout-ms ${requestTimeoutMs}: a model that never answers would have the request time out before its fallback runs (${margin} ms are kept for it); use --model-timeout ${available} or less, or a larger --timeout-ms`,
    );
  return requestedMs;
}

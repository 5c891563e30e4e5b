/**
 * Stable error codes. Callers branch on `code`, never on messages; codes are never renamed.
 */
export const weftErrorCodes = [
  'WEFT_BAD_INPUT',
  'WEFT_NOT_FOUND',
  'WEFT_WRITE_REJECTED',
  'WEFT_TIMEOUT',
  'WEFT_ABORTED',
  'WEFT_LLM_BUDGET_EXCEEDED',
  'WEFT_EMBEDDER_MISMATCH',
  'WEFT_STAGE_FAILED',
  'WEFT_STORE_FAILED',
  'WEFT_UNSUPPORTED',
] as const;

export type WeftErrorCode = (typeof weftErrorCodes)[number];

export interface WeftErrorOptions {
  readonly code: WeftErrorCode;
  readonly message: string;
  readonly cause?: unknown;
  /** Where bad input was found, e.g. `{ file: 'nodes.jsonl', line: 12, field: 'type' }`. */
  readonly details?: Readonly<Record<string, unknown>>;
}

export class WeftError extends Error {
  readonly code: WeftErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(options: WeftErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WeftError';
    this.code = options.code;
    this.details = options.details ?? {};
  }

  static is(error: unknown, code?: WeftErrorCode): error is WeftError {
    return error instanceof WeftError && (code === undefined || error.code === code);
  }
}

/** Wraps anything thrown into a WeftError, keeping WeftErrors as they are. */
export function toWeftError(error: unknown, code: WeftErrorCode, message: string): WeftError {
  if (error instanceof WeftError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new WeftError({ code, message: `${message}: ${reason}`, cause: error });
}

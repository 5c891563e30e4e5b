/** Stable codes of the JSON errors the server answers with; clients branch on `code`, not on messages. */
export type ApiErrorCode =
  | 'WEFT_BAD_JSON'
  | 'WEFT_BAD_INPUT'
  | 'WEFT_UNKNOWN_STACK'
  | 'WEFT_BODY_TOO_LARGE'
  | 'WEFT_UNSUPPORTED_MEDIA_TYPE'
  | 'WEFT_QUERY_TOO_LONG'
  | 'WEFT_LIMIT_OUT_OF_RANGE'
  | 'WEFT_NOT_FOUND'
  | 'WEFT_UNAUTHORIZED'
  | 'WEFT_FORBIDDEN'
  | 'WEFT_TIMEOUT'
  | 'WEFT_ABORTED'
  | 'WEFT_UNAVAILABLE'
  | 'WEFT_BUSY'
  | 'WEFT_RUNTIME';

/** The body of every error response: `{ "error": { "code", "message", "details"? } }` (as `weft … --json`). */
export interface ApiErrorBody {
  readonly error: { readonly code: ApiErrorCode; readonly message: string; readonly details?: unknown };
}

/** An error that becomes a JSON response with `status`; anything else thrown becomes a 500. */
export class ApiError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 499 | 500 | 503 | 504;
  readonly code: ApiErrorCode;
  readonly details: unknown;

  constructor(status: ApiError['status'], code: ApiErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  body(): ApiErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

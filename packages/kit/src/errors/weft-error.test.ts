import { describe, expect, it } from 'vitest';
import { toWeftError, WeftError, weftErrorCodes } from './weft-error.ts';

describe('WeftError', () => {
  it('carries a stable code, details and cause', () => {
    const cause = new Error('boom');
    const error = new WeftError({ code: 'WEFT_BAD_INPUT', message: 'bad', details: { line: 3 }, cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('WEFT_BAD_INPUT');
    expect(error.details).toEqual({ line: 3 });
    expect(error.cause).toBe(cause);
    expect(WeftError.is(error, 'WEFT_BAD_INPUT')).toBe(true);
    expect(WeftError.is(error, 'WEFT_TIMEOUT')).toBe(false);
    expect(WeftError.is(new Error('x'))).toBe(false);
  });

  it('wraps foreign errors and keeps its own', () => {
    const own = new WeftError({ code: 'WEFT_TIMEOUT', message: 't' });
    expect(toWeftError(own, 'WEFT_STAGE_FAILED', 'x')).toBe(own);
    const wrapped = toWeftError(new TypeError('nope'), 'WEFT_STAGE_FAILED', 'planner failed');
    expect(wrapped.code).toBe('WEFT_STAGE_FAILED');
    expect(wrapped.message).toBe('planner failed: nope');
  });

  it('codes are unique and prefixed', () => {
    expect(new Set(weftErrorCodes).size).toBe(weftErrorCodes.length);
    for (const code of weftErrorCodes) expect(code).toMatch(/^WEFT_[A-Z_]+$/);
  });
});

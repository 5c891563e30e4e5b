import { describe, expect, it } from 'vitest';
import { extractJson, fencedBlock } from './extract-json.ts';

describe('extractJson', () => {
  it('parses plain JSON without repairs', () => {
    expect(extractJson('{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] }, repairs: [] });
  });

  it('removes a code fence and prose, and fixes trailing commas and typographic quotes', () => {
    expect(extractJson('Here you go:\n```json\n{"a": 1}\n```\nHope it helps')).toEqual({
      ok: true,
      value: { a: 1 },
      repairs: ['code fence removed'],
    });
    expect(extractJson('The plan is {"a": {"b": "}"}} as asked.')).toMatchObject({
      ok: true,
      value: { a: { b: '}' } },
      repairs: ['text around the JSON dropped'],
    });
    expect(extractJson('{“a”: [1, 2,],}')).toMatchObject({ ok: true, value: { a: [1, 2] } });
  });

  it('says why when there is no JSON, never throwing', () => {
    expect(extractJson('   ')).toEqual({ ok: false, message: 'the answer is empty' });
    expect(extractJson('I would follow made_by from Nikon.')).toEqual({
      ok: false,
      message: 'the answer holds no JSON object',
    });
    expect(extractJson('{"a": 1')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not valid JSON/),
    });
  });
});

describe('fencedBlock', () => {
  it('returns the first fenced block, optionally of given languages', () => {
    expect(fencedBlock('x\n```cypher\nMATCH (n) RETURN n\n```')).toBe('MATCH (n) RETURN n\n');
    expect(fencedBlock('```python\nprint()\n```', ['cypher'])).toBeUndefined();
    expect(fencedBlock('no fence')).toBeUndefined();
  });
});

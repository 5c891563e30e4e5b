import type { TextIndexV1, TextIndexV2, TextSearchOptionsV2 } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { withTextField } from './search.ts';

function index(fields: readonly string[], seen: (string | undefined)[]): TextIndexV2 {
  return {
    specificationVersion: 'v2',
    provider: 'test',
    maxQueriesPerCall: 8,
    fields: fields.map((name) => ({ name, description: name })),
    defaultField: 'document',
    doSearch: async (options: TextSearchOptionsV2) => {
      seen.push(options.field);
      return options.queries.map(() => []);
    },
    close: async () => {},
  };
}

describe('withTextField', () => {
  it('searches the field wherever the caller names none, and the named one otherwise', async () => {
    const seen: (string | undefined)[] = [];
    const context = withTextField({ text: index(['document', 'combined'], seen) }, 'combined');
    const text = context.text as TextIndexV2;
    await text.doSearch({ queries: ['eye'], limit: 3 });
    await text.doSearch({ queries: ['eye'], limit: 3, field: 'document' });
    expect(seen).toEqual(['combined', 'document']);
    expect(text.defaultField).toBe('combined');
  });

  it('gives the same view for the same index and field, so a prepared handle still matches', () => {
    const base = index(['document', 'combined'], []);
    expect(withTextField({ text: base }, 'combined').text).toBe(
      withTextField({ text: base }, 'combined').text,
    );
  });

  it('leaves a store without the field, a version 1 index and no field as they are', () => {
    const plain = { text: index(['document'], []) };
    expect(withTextField(plain, 'combined')).toBe(plain);
    expect(withTextField(plain, undefined)).toBe(plain);
    const v1 = { text: { specificationVersion: 'v1' } as unknown as TextIndexV1 };
    expect(withTextField(v1, 'combined')).toBe(v1);
  });

  it('closing the view leaves the index open', async () => {
    let closed = false;
    const base = {
      ...index(['document', 'combined'], []),
      close: async () => {
        closed = true;
      },
    };
    await withTextField({ text: base }, 'combined').text.close();
    expect(closed).toBe(false);
  });
});

import { toySkb } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { describeSchema } from './describe-schema.ts';
import { schemaNames } from './schema-names.ts';

const names = schemaNames(toySkb().schema);

describe('schemaNames', () => {
  it('maps label and relation spellings onto the schema, saying when it repaired', () => {
    expect(names.nodeType('product')).toEqual({ name: 'product', repaired: false });
    expect(names.nodeType(':Products')).toEqual({ name: 'product', repaired: true });
    expect(names.nodeType('Categories')).toEqual({ name: 'category', repaired: true });
    expect(names.edgeType('MADE_BY')).toEqual({ name: 'made_by', repaired: true });
    expect(names.edgeType('madeBy')).toEqual({ name: 'made_by', repaired: true });
    expect(names.edgeType('made by')).toEqual({ name: 'made_by', repaired: true });
    expect(names.nodeType('lens')).toBeUndefined();
    expect(names.edgeType('sold_by')).toBeUndefined();
  });

  it('checks directions against the edge signatures and turns a reversed one around', () => {
    // made_by: product -> brand. From a brand, it is followed backwards to products.
    expect(names.direction('made_by', 'out', 'brand', 'product')).toEqual({
      direction: 'in',
      repaired: true,
    });
    expect(names.direction('made_by', 'in', 'brand', 'product')).toEqual({
      direction: 'in',
      repaired: false,
    });
    expect(names.direction('made_by', 'out', 'product', undefined)).toEqual({
      direction: 'out',
      repaired: false,
    });
    expect(names.direction('made_by', undefined, 'brand', undefined)).toEqual({
      direction: 'in',
      repaired: false,
    });
    expect(names.direction('made_by', 'out', 'category', 'category')).toBeUndefined();
  });
});

describe('describeSchema', () => {
  it('lists node types, directed edge types and answer types', () => {
    const text = describeSchema(toySkb().schema);
    expect(text).toContain('- product: something the shop sells');
    expect(text).toContain('- (product) -[made_by]-> (brand): is made by');
    expect(text).toContain('Answer types: product');
  });
});

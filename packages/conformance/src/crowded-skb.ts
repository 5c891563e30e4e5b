import { type InMemorySkb, toySkb } from '@weft/core/test';

/**
 * The toy SKB plus `extra` products that all match the word "lens" (lens caps of the three
 * brands): more answers than a default-sized ranking holds, so a default or explicit limit that is
 * not honoured shows.
 */
export function crowdedSkb(extra = 30): InMemorySkb {
  const toy = toySkb();
  const brands = ['b:nikon', 'b:canon', 'b:leica'];
  const caps = Array.from({ length: extra }, (_, i) => ({
    id: `p:cap${i + 1}`,
    type: 'product',
    name: `Lens cap ${i + 1}`,
    text: `A ${52 + i} mm lens cap that protects the front lens element.`,
  }));
  return {
    schema: toy.schema,
    nodes: [...toy.nodes, ...caps],
    edges: [...toy.edges, ...caps.map((cap, i) => ({ src: cap.id, type: 'made_by', dst: brands[i % 3]! }))],
  };
}

import type { SkbEdge, SkbNode, SkbSchema } from '@weft/spec';
import type { InMemorySkb } from './in-memory-graph-store.ts';

const schema: SkbSchema = {
  name: 'toy-cameras',
  version: 1,
  description: 'A tiny camera shop: products with descriptions, their brands and categories.',
  nodeTypes: [
    { name: 'product', description: 'something the shop sells' },
    { name: 'brand', description: 'who makes a product' },
    { name: 'category', description: 'a product category' },
  ],
  edgeTypes: [
    { name: 'made_by', from: 'product', to: 'brand', description: 'is made by' },
    { name: 'in_category', from: 'product', to: 'category', description: 'belongs to' },
    { name: 'compatible_with', from: 'product', to: 'product', description: 'works with' },
    { name: 'subcategory_of', from: 'category', to: 'category', description: 'is a kind of' },
  ],
  targetTypes: ['product'],
};

const node = (id: string, type: string, name: string, text: string, aliases?: string[]): SkbNode => ({
  id,
  type,
  name,
  text,
  ...(aliases ? { aliases } : {}),
});

const nodes: SkbNode[] = [
  node('b:nikon', 'brand', 'Nikon', 'Japanese maker of cameras and optics.', ['Nikon Corporation']),
  node('b:canon', 'brand', 'Canon', 'Japanese maker of cameras, printers and lenses.'),
  node('b:leica', 'brand', 'Leica', 'German maker of rangefinder cameras.', ['Leitz']),
  node('c:cameras', 'category', 'Cameras', 'Devices that take photographs.'),
  node('c:dslr', 'category', 'DSLR cameras', 'Digital single-lens reflex cameras.'),
  node('c:lenses', 'category', 'Lenses', 'Interchangeable optics for cameras.'),
  node('c:trail', 'category', 'Trail cameras', 'Weatherproof cameras for wildlife, triggered by motion.'),
  node(
    'p:d850',
    'product',
    'Nikon D850',
    'Full-frame DSLR with an F-mount; rugged, weather sealed, fast autofocus for wildlife.',
  ),
  node('p:d3500', 'product', 'Nikon D3500', 'Entry-level DSLR with an F-mount, light and simple.'),
  node(
    'p:nikkor',
    'product',
    'AF-S Nikkor 200-500mm',
    'Telephoto zoom lens with F-mount for birds and wildlife.',
    ['Nikkor 200-500'],
  ),
  node('p:eos', 'product', 'Canon EOS 90D', 'DSLR with an EF mount, good for sports and wildlife.'),
  node('p:ef', 'product', 'Canon EF 100-400mm', 'Telephoto zoom lens with EF mount.'),
  node(
    'p:trailcam',
    'product',
    'Bushnell Trophy Cam',
    'Motion-triggered trail camera for wildlife, night vision, waterproof.',
  ),
  node(
    'p:q2',
    'product',
    'Leica Q2',
    'Compact full-frame camera with a fixed Summilux lens; café street photography.',
  ),
  node('p:blank', 'product', 'Mystery box', ''),
];

const edge = (src: string, type: string, dst: string): SkbEdge => ({ src, type, dst });

const edges: SkbEdge[] = [
  edge('p:d850', 'made_by', 'b:nikon'),
  edge('p:d3500', 'made_by', 'b:nikon'),
  edge('p:nikkor', 'made_by', 'b:nikon'),
  edge('p:eos', 'made_by', 'b:canon'),
  edge('p:ef', 'made_by', 'b:canon'),
  edge('p:q2', 'made_by', 'b:leica'),
  edge('p:d850', 'in_category', 'c:dslr'),
  edge('p:d3500', 'in_category', 'c:dslr'),
  edge('p:eos', 'in_category', 'c:dslr'),
  edge('p:nikkor', 'in_category', 'c:lenses'),
  edge('p:ef', 'in_category', 'c:lenses'),
  edge('p:trailcam', 'in_category', 'c:trail'),
  edge('p:q2', 'in_category', 'c:cameras'),
  edge('p:nikkor', 'compatible_with', 'p:d850'),
  edge('p:nikkor', 'compatible_with', 'p:d3500'),
  edge('p:ef', 'compatible_with', 'p:eos'),
  edge('c:dslr', 'subcategory_of', 'c:cameras'),
  edge('c:trail', 'subcategory_of', 'c:cameras'),
];

/**
 * A tiny camera-shop SKB for tests and the conformance suites: three node types, four edge types,
 * aliases, a non-ASCII name and a node with an empty document.
 */
export function toySkb(): InMemorySkb {
  return { schema, nodes: nodes.map((n) => ({ ...n })), edges: edges.map((e) => ({ ...e })) };
}

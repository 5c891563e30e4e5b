// A WordNet-shaped bundle of thirteen synsets (the sense organs, their parts, and the eye of a needle
// as the other sense of "eye"), written as plain files in the SKB layout (docs/skb-format.md). The
// release check puts it where the README's program looks for its WordNet bundle, so the program
// builds a store in seconds instead of writing WordNet first, and asks it its question.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The synsets the README's question, "a part of the eye", is about: one of them must rank first. */
export const eyeParts = ['t:retina', 't:iris', 't:cornea', 't:pupil'] as const;

const nodes: readonly [id: string, type: string, name: string, aliases: string[], text: string][] = [
  ['t:eye', 'noun.body', 'eye', ['oculus', 'optic'], 'the organ of sight'],
  [
    't:retina',
    'noun.body',
    'retina',
    [],
    'the light-sensitive membrane covering the back wall of the eyeball',
  ],
  [
    't:iris',
    'noun.body',
    'iris',
    [],
    'muscular diaphragm that controls the size of the pupil, which in turn controls the amount of light that enters the eye',
  ],
  [
    't:cornea',
    'noun.body',
    'cornea',
    [],
    'the transparent dome-shaped anterior portion of the outer covering of the eye',
  ],
  ['t:pupil', 'noun.body', 'pupil', [], 'the contractile aperture in the center of the iris of the eye'],
  ['t:ear', 'noun.body', 'ear', [], 'the sense organ for hearing and equilibrium'],
  [
    't:eardrum',
    'noun.body',
    'eardrum',
    ['tympanic membrane'],
    'the membrane in the ear that vibrates to sound',
  ],
  [
    't:cochlea',
    'noun.body',
    'cochlea',
    [],
    'the snail-shaped tube in the inner ear where sound vibrations are converted into nerve impulses',
  ],
  ['t:nose', 'noun.body', 'nose', [], 'the organ of smell and entrance to the respiratory tract'],
  [
    't:nostril',
    'noun.body',
    'nostril',
    ['naris'],
    'either one of the two external openings to the nasal cavity',
  ],
  [
    't:sense-organ',
    'noun.body',
    'sense organ',
    ['receptor'],
    'an organ having nerve endings that respond to stimulation',
  ],
  ['t:needle-eye', 'noun.artifact', 'eye', [], 'a small hole or loop, as in a needle'],
  [
    't:needle',
    'noun.artifact',
    'needle',
    [],
    'a sharp pointed implement with a small hole at one end for the thread, used in sewing',
  ],
];

const edges: readonly [src: string, type: string, dst: string][] = [
  ['t:eye', 'part_meronym', 't:retina'],
  ['t:eye', 'part_meronym', 't:iris'],
  ['t:eye', 'part_meronym', 't:cornea'],
  ['t:iris', 'part_meronym', 't:pupil'],
  ['t:ear', 'part_meronym', 't:eardrum'],
  ['t:ear', 'part_meronym', 't:cochlea'],
  ['t:nose', 'part_meronym', 't:nostril'],
  ['t:eye', 'hypernym', 't:sense-organ'],
  ['t:ear', 'hypernym', 't:sense-organ'],
  ['t:nose', 'hypernym', 't:sense-organ'],
  ['t:needle', 'part_meronym', 't:needle-eye'],
];

/** Writes schema.json, nodes.jsonl and edges.jsonl into `directory` (created). */
export async function writeTinyBundle(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  const schema = {
    name: 'tiny-wordnet',
    version: 1,
    description: 'A few WordNet-like synsets: the sense organs and their parts.',
    nodeTypes: [
      { name: 'noun.body', description: 'nouns denoting body parts' },
      { name: 'noun.artifact', description: 'nouns denoting man-made objects' },
    ],
    edgeTypes: [
      { name: 'hypernym', from: '*', to: '*', description: 'src is a kind of dst' },
      { name: 'part_meronym', from: '*', to: '*', description: 'dst is a part of src' },
    ],
  };
  const lines = (records: readonly object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
  await writeFile(path.join(directory, 'schema.json'), `${JSON.stringify(schema, null, 2)}\n`);
  await writeFile(
    path.join(directory, 'nodes.jsonl'),
    lines(nodes.map(([id, type, name, aliases, text]) => ({ id, type, name, aliases, text }))),
  );
  await writeFile(
    path.join(directory, 'edges.jsonl'),
    lines(edges.map(([src, type, dst]) => ({ src, type, dst }))),
  );
}

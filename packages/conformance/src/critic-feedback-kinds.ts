import type { CriticFeedbackKind } from '@weft/spec';

/** Every `CriticFeedbackKind` of the v1 contract (HybGRAG's kinds of corrective feedback). */
export const criticFeedbackKinds = [
  'incorrect-entity',
  'missing-entity',
  'no-entity',
  'no-intersection',
  'incorrect-intersection',
  'wrong-module',
] as const satisfies readonly CriticFeedbackKind[];

// Fails to compile when the spec adds a kind this list lacks.
type Unlisted = Exclude<CriticFeedbackKind, (typeof criticFeedbackKinds)[number]>;
const everyKindListed: [Unlisted] extends [never] ? true : false = true;
void everyKindListed;

export { type LinkMentionsOptions, linkMentions, type Mention, mentionAnchors } from './link-mentions.ts';
export { contentWords, type QuerySpan } from '@weft/grounding';

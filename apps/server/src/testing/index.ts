export { cannedAnswerModel } from './canned-answer-model.ts';
// Test support for packages that test against a running server (the explorer's browser test).
export { gatedStack, stallStack } from './test-stacks.ts';
export { toyQueries, toyStoreDirectory } from './toy-store-directory.ts';

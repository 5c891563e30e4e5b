export {
  BankTraverser,
  type BankTraverserOptions,
  RetrieverBank,
  type RetrieverBankOptions,
} from './bank-traverser.ts';

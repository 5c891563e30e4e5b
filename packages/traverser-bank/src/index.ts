export { RetrieverBank, type RetrieverBankOptions } from './retriever-bank.ts';

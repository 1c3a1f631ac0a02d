export * from './studio-contract.ts';

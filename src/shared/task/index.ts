export * from './account-history.ts';
export * from './batch-words.ts';
export * from './library-queries.ts';
export * from './list-order.ts';
export * from './task-draft.ts';
export * from './task-file-import.ts';
export * from './task-lineage.ts';
export * from './task-model.ts';

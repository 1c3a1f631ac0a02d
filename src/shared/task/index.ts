export * from './list-order.ts';
export * from './task-lineage.ts';
export * from './task-model.ts';

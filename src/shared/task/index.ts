export * from './list-order.ts';
export * from './task-model.ts';

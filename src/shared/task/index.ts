export * from './task-model.ts';

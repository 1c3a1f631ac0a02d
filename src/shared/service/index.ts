export * from './account.ts';
export * from './remote-task.ts';
export * from './task-lists.ts';
export * from './wire.ts';

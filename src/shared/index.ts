export * from './catalog/index.ts';
export * from './compose/index.ts';
export * from './ipc/index.ts';
export * from './media/index.ts';
export * from './service/index.ts';
export * from './settings/index.ts';
export * from './task/index.ts';
export * from './text/index.ts';

export * from './catalog.ts';
export * from './prices.ts';
export * from './remote-task.ts';
export * from './wire.ts';

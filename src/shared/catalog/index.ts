export * from './draft-input-size.ts';
export * from './entry-lookup.ts';
export * from './input-fields.ts';
export * from './limits.ts';
export * from './price-rules.ts';
export * from './prices.ts';
export * from './service-profiles.ts';
export * from './task-types.ts';

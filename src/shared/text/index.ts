export * from './control-characters.ts';

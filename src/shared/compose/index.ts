export * from './saved-forms.ts';
export * from './slot-kinds.ts';

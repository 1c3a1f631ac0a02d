export * from './saved-forms.ts';

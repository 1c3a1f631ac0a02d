export * from './lyrics-tags.ts';
export * from './prompt-list.ts';
export * from './prompt-list-drafts.ts';
export * from './saved-forms.ts';
export * from './slot-kinds.ts';
export * from './song-edit.ts';

/** The catalog's picture, video and 3D entries (issue 19), in the order the CLI and forms list them. */
import type { EntryParts } from '../entry-parts.ts';
import { IMAGE_ENTRIES } from './image-entries.ts';
import { MODEL3D_ENTRIES } from './model3d-entries.ts';
import { VIDEO_ENTRIES } from './video-entries.ts';

export const MEDIA_ENTRIES: readonly EntryParts[] = [...IMAGE_ENTRIES, ...VIDEO_ENTRIES, ...MODEL3D_ENTRIES];

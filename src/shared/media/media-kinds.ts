/**
 * The one table of media kinds: image, audio, video, 3D model, and a plain file for anything
 * else. Each row says which files the kind is (extensions and MIME types), how its bytes are
 * recognised, what an input of that kind may be (its general limits: a limit that depends on the
 * model is the catalog field's own rule), the words the app uses for it, and how the window shows
 * it, as plain data the renderer maps to its components. Nothing else branches on "audio or image".
 */

import { LIMITS } from '../catalog/limits.ts';
import {
  type RecognisedKind,
  recogniseAudio,
  recogniseImage,
  recogniseModel3d,
  recogniseVideo,
  type SniffedType,
} from './media-recognition.ts';

export const MEDIA_KINDS = ['image', 'audio', 'video', '3d', 'file'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** One file format of a kind: its usual extension and MIME type, and the other spellings seen. */
export interface MediaFormat {
  ext: string;
  mime: string;
  /** With its article, for messages: "a PNG image", "an MP3 audio file". */
  description: string;
  otherExts?: readonly string[];
  otherMimes?: readonly string[];
}

/** The general limits of an input of a kind; a catalog field may narrow them (FieldRule.mediaLimits). */
export interface MediaInputLimits {
  /** Largest local file or decoded Base64, in bytes. */
  maxBytes: number;
  /** The formats (by `MediaFormat.ext`) an input of this kind may be. */
  formats: readonly string[];
  /** Images: each side must be under this many pixels. */
  maxSideExclusive?: number;
  /** Video: the frame must fit in this box, either way round (1280 x 720 = 720p). */
  maxFrame?: { long: number; short: number };
  /** Video: fewest and most frames. */
  minFrames?: number;
  maxFrames?: number;
  /** Video: longest, in seconds. */
  maxSeconds?: number;
}

/** How the window shows a kind; the renderer maps each value to a component. */
export interface MediaPresentation {
  /** The library card: a picture thumbnail, a sound with its play button and length, … */
  card: 'picture' | 'sound' | 'video' | 'model' | 'file';
  /** The detail view's viewer: a 3D model's is an orbit viewer with lights (three.js). */
  viewer: 'image' | 'waveform' | 'video' | 'model' | 'download';
  /** The card's thumbnail: the picture itself, the poster frame saved beside it, or the kind's icon. */
  thumbnail: 'picture' | 'poster' | 'icon';
  /** Before/after: a slider over two pictures, two players side by side playing in step, or none. */
  compare: 'slider' | 'players' | 'none';
  /** Shown where there is no thumbnail. */
  icon: string;
  /** The file chooser's `accept` for an input of this kind. */
  accept: string;
}

/** The words the app uses for a kind (each in the place its name says). */
export interface MediaWords {
  /** What a wrong file is not: "is not an image", "is a GIF, not an audio file". */
  wanted: string;
  /** "is not an image file" when nothing is recognised. */
  wantedFile: string;
  /** "not a URL, a Base64 image or a file path". */
  base64: string;
  /** A media slot's drop hint: "Drop an image", "Drop an audio file". */
  slot: string;
  /** What the service fetches from a web address: "this picture", "this audio". */
  fetched: string;
  /** What a form asks for: "a picture", "an audio file". */
  asked: string;
  /** What a file dialog asks for: "a picture", "a sound". */
  chosen: string;
  /** A result of the kind: "picture", "song". */
  result: string;
  /** What a field of the kind takes: "an image", "audio". */
  takes: string;
}

export interface MediaKindRow {
  kind: MediaKind;
  /** The kind's name in the window: "picture", "3D model". */
  label: string;
  formats: readonly MediaFormat[];
  /** Recognises the kind from a file's first bytes; null for the plain file (whatever no kind is). */
  recognise: ((head: Uint8Array) => SniffedType | null) | null;
  /** What an input of this kind may be; null when no field takes it. */
  input: MediaInputLimits | null;
  words: MediaWords;
  show: MediaPresentation;
  /**
   * What the app reads from a saved result: a picture's thumbnail and size, a sound's length, a
   * video's size and length (its poster is drawn by the window: engine/poster-saving.ts), nothing.
   */
  onSave: 'thumbnail' | 'duration' | 'videoFacts' | 'nothing';
}

const MB = 1024 * 1024;

const IMAGE: MediaKindRow = {
  kind: 'image',
  label: 'picture',
  formats: [
    { ext: 'png', mime: 'image/png', description: 'a PNG image', otherMimes: ['image/x-png'] },
    {
      ext: 'jpg',
      mime: 'image/jpeg',
      description: 'a JPEG image',
      otherExts: ['jpeg'],
      otherMimes: ['image/jpg', 'image/pjpeg'],
    },
    { ext: 'webp', mime: 'image/webp', description: 'a WebP image' },
    { ext: 'gif', mime: 'image/gif', description: 'a GIF' },
    {
      ext: 'bmp',
      mime: 'image/bmp',
      description: 'a BMP image',
      otherMimes: ['image/x-ms-bmp', 'image/x-bmp'],
    },
    { ext: 'avif', mime: 'image/avif', description: 'an AVIF image' },
    { ext: 'heic', mime: 'image/heic', description: 'a HEIC image' },
    { ext: 'heif', mime: 'image/heif', description: 'a HEIF image' },
  ],
  recognise: recogniseImage,
  // the types whose size can be read from the header (src/core/inputs/image-header.ts)
  input: {
    maxBytes: LIMITS.imageMaxBytes,
    formats: ['jpg', 'png', 'webp', 'gif', 'bmp'],
    maxSideExclusive: LIMITS.imageMaxSideExclusive,
  },
  words: {
    wanted: 'an image',
    wantedFile: 'an image file',
    base64: 'a Base64 image',
    slot: 'image',
    fetched: 'picture',
    asked: 'a picture',
    chosen: 'a picture',
    result: 'picture',
    takes: 'an image',
  },
  onSave: 'thumbnail',
  show: {
    card: 'picture',
    viewer: 'image',
    thumbnail: 'picture',
    compare: 'slider',
    icon: '▣',
    accept: 'image/*',
  },
};

const AUDIO: MediaKindRow = {
  kind: 'audio',
  label: 'sound',
  formats: [
    {
      ext: 'mp3',
      mime: 'audio/mpeg',
      description: 'an MP3 audio file',
      otherMimes: ['audio/mp3', 'audio/mpeg3', 'audio/x-mpeg'],
    },
    {
      ext: 'wav',
      mime: 'audio/wav',
      description: 'a WAV audio file',
      otherMimes: ['audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
    },
    { ext: 'flac', mime: 'audio/flac', description: 'a FLAC audio file', otherMimes: ['audio/x-flac'] },
    {
      ext: 'ogg',
      mime: 'audio/ogg',
      description: 'an Ogg audio file',
      otherExts: ['oga', 'opus'],
      otherMimes: ['audio/x-ogg', 'application/ogg', 'audio/opus'],
    },
    {
      ext: 'm4a',
      mime: 'audio/mp4',
      description: 'an M4A audio file',
      otherMimes: ['audio/x-m4a', 'audio/m4a'],
    },
    { ext: 'aac', mime: 'audio/aac', description: 'an AAC audio file' },
  ],
  recognise: recogniseAudio,
  input: { maxBytes: LIMITS.audioMaxBytes, formats: ['mp3', 'wav', 'flac', 'ogg', 'm4a'] },
  words: {
    wanted: 'an audio file',
    wantedFile: 'an audio file',
    base64: 'Base64 audio',
    slot: 'audio file',
    fetched: 'audio',
    asked: 'an audio file',
    chosen: 'a sound',
    result: 'song',
    takes: 'audio',
  },
  onSave: 'duration',
  show: {
    card: 'sound',
    viewer: 'waveform',
    thumbnail: 'icon',
    compare: 'players',
    icon: '♪',
    accept: 'audio/*,.mp3,.wav,.flac,.ogg,.m4a',
  },
};

/** The service's video inputs (video-toolkit's upscale and face swap, the upload endpoint). */
const VIDEO: MediaKindRow = {
  kind: 'video',
  label: 'video',
  formats: [
    { ext: 'mp4', mime: 'video/mp4', description: 'an MP4 video', otherExts: ['m4v'] },
    { ext: 'mov', mime: 'video/quicktime', description: 'a QuickTime video' },
    { ext: 'webm', mime: 'video/webm', description: 'a WebM video' },
    { ext: 'mkv', mime: 'video/x-matroska', description: 'a Matroska video' },
    { ext: 'ogv', mime: 'video/ogg', description: 'an Ogg video' },
  ],
  recognise: recogniseVideo,
  // field notes: MP4 at most 10 MB and 720p (upscale 10-240 frames, face swap <= 600: the field's rule)
  input: { maxBytes: 10 * MB, formats: ['mp4'], maxFrame: { long: 1280, short: 720 }, maxFrames: 600 },
  words: {
    wanted: 'an MP4 video',
    wantedFile: 'an MP4 video file',
    base64: 'a Base64 video',
    slot: 'MP4 video',
    fetched: 'video',
    asked: 'an MP4 video',
    chosen: 'a video',
    result: 'video',
    takes: 'a video',
  },
  onSave: 'videoFacts',
  show: {
    card: 'video',
    viewer: 'video',
    thumbnail: 'poster',
    compare: 'players',
    icon: '▶',
    accept: 'video/mp4,.mp4',
  },
};

const MODEL_3D: MediaKindRow = {
  kind: '3d',
  label: '3D model',
  formats: [{ ext: 'glb', mime: 'model/gltf-binary', description: 'a GLB 3D model' }],
  recognise: recogniseModel3d,
  input: null,
  words: {
    wanted: 'a 3D model',
    wantedFile: 'a GLB file',
    base64: 'a Base64 3D model',
    slot: '3D model',
    fetched: '3D model',
    asked: 'a 3D model',
    chosen: 'a 3D model',
    result: '3D model',
    takes: 'a 3D model',
  },
  onSave: 'nothing',
  // the card shows a still of the same task (its turntable's poster, its picture) where it has one
  show: { card: 'model', viewer: 'model', thumbnail: 'icon', compare: 'none', icon: '◆', accept: '.glb' },
};

const FILE: MediaKindRow = {
  kind: 'file',
  label: 'file',
  formats: [{ ext: 'bin', mime: 'application/octet-stream', description: 'a file' }],
  recognise: null,
  input: null,
  words: {
    wanted: 'a file',
    wantedFile: 'a file',
    base64: 'Base64 data',
    slot: 'file',
    fetched: 'file',
    asked: 'a file',
    chosen: 'a file',
    result: 'file',
    takes: 'a file',
  },
  onSave: 'nothing',
  show: { card: 'file', viewer: 'download', thumbnail: 'icon', compare: 'none', icon: '◆', accept: '' },
};

export const MEDIA_KIND_TABLE: Readonly<Record<MediaKind, MediaKindRow>> = {
  image: IMAGE,
  audio: AUDIO,
  video: VIDEO,
  '3d': MODEL_3D,
  file: FILE,
};

export function mediaKind(kind: MediaKind): MediaKindRow {
  return MEDIA_KIND_TABLE[kind];
}

/** The kinds a field may take, in the table's order: those with input limits. */
export const INPUT_MEDIA_KINDS = ['image', 'audio', 'video'] as const satisfies readonly MediaKind[];
export type InputMediaKind = (typeof INPUT_MEDIA_KINDS)[number];

/** An input kind's limits (every input kind has them). */
export function inputLimitsOf(kind: InputMediaKind): MediaInputLimits {
  const limits = MEDIA_KIND_TABLE[kind].input;
  if (limits === null) throw new Error(`media kind ${kind} takes no input`);
  return limits;
}

/** The kind of a file by its bytes, or null when no kind recognises them (a plain file). */
export function sniffFileType(head: Uint8Array): SniffedType | null {
  for (const kind of MEDIA_KINDS) {
    const type = MEDIA_KIND_TABLE[kind].recognise?.(head) ?? null;
    if (type !== null) return type;
  }
  return null;
}

interface FormatOfKind extends MediaFormat {
  kind: MediaKind;
}

const BY_EXT = new Map<string, FormatOfKind>();
const BY_MIME = new Map<string, FormatOfKind>();
for (const kind of MEDIA_KINDS) {
  if (kind === 'file') continue;
  for (const format of MEDIA_KIND_TABLE[kind].formats) {
    const entry = { ...format, kind };
    for (const ext of [format.ext, ...(format.otherExts ?? [])]) BY_EXT.set(ext, entry);
    for (const mime of [format.mime, ...(format.otherMimes ?? [])]) BY_MIME.set(mime, entry);
  }
}

/** The format of an extension (without the dot, any case), or null when no kind has it. */
export function formatOfExtension(ext: string): FormatOfKind | null {
  return BY_EXT.get(ext.toLowerCase()) ?? null;
}

/** The format of a MIME type (parameters ignored, other spellings folded), or null. */
export function formatOfMime(mime: string): FormatOfKind | null {
  return BY_MIME.get(mime.split(';')[0]!.trim().toLowerCase()) ?? null;
}

/** The media kind of a MIME type: its format's, else its top-level type's; `file` for anything else. */
export function mediaKindOfMime(mime: string): MediaKind {
  const format = formatOfMime(mime);
  if (format) return format.kind;
  const top = mime.split('/')[0]?.trim().toLowerCase();
  return top === 'image' || top === 'audio' || top === 'video' ? top : top === 'model' ? '3d' : 'file';
}

/** Every extension of a kind's files, the usual and the other spellings (a file dialog's filter). */
export function extensionsOf(kind: MediaKind): string[] {
  return MEDIA_KIND_TABLE[kind].formats.flatMap((f) => [f.ext, ...(f.otherExts ?? [])]);
}

/** "a PNG image", "an MP3 audio file", "a GIF": for error messages. */
export function describeType(type: { ext: string; mime: string }): string {
  return formatOfExtension(type.ext)?.description ?? `a ${type.mime} file`;
}

export type { RecognisedKind, SniffedType };

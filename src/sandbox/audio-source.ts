/**
 * The source song of `extend` and `edit` (input.audio) and of `audio2audio` (input.style_audio),
 * read when the task's processing ends, as the real service reads it: an http(s) URL is
 * downloaded (under the outbound policy), Base64 or a data URI is decoded. The sandbox reads
 * WAV only (its own song results are WAV; the real service's are MP3). A source it cannot get or
 * read fails the task with the real service's words (field notes: `failed to get input audio`)
 * followed by the reason, never with a made-up song.
 */
import { isHttpUrl } from '../shared/catalog/index.ts';
import { decodeMediaBase64, MediaInputError, readWavHeader, type WavHeader } from './media/index.ts';
import type { TaskErrorObject } from './task-record.ts';

export interface SourceAudio {
  /** The input field it came from. */
  field: string;
  bytes: Buffer;
  header: WavHeader;
}

/** The input field holding a task type's source song, or null when it has none. */
export function sourceAudioField(taskType: string): string | null {
  switch (taskType) {
    case 'extend':
    case 'edit':
      return 'audio';
    case 'audio2audio':
      return 'style_audio';
    default:
      return null;
  }
}

/** A source song that cannot be got or read; `message` says why, naming the field. */
export class SourceAudioError extends Error {
  override readonly name = 'SourceAudioError';
  /** Where the value came from, for the error's raw_message. */
  readonly origin: string;

  constructor(message: string, origin: string) {
    super(message);
    this.origin = origin;
  }
}

/** The real service's words for a source it could not get (field notes). */
export const SOURCE_AUDIO_FAILED = 'failed to get input audio';

/** The error object of a task whose source song could not be got or read. */
export function sourceAudioFailure(err: SourceAudioError): TaskErrorObject {
  return {
    code: 10000,
    message: `${SOURCE_AUDIO_FAILED}: ${err.message}`,
    raw_message: `sandbox: ${err.origin}: ${err.message}`,
    detail: null,
  };
}

/** Reads the task's source song; null for a task type without one. Throws SourceAudioError. */
export async function loadSourceAudio(
  taskType: string,
  input: Record<string, unknown>,
  fetchAudio: (url: string) => Promise<Buffer>,
): Promise<SourceAudio | null> {
  const field = sourceAudioField(taskType);
  if (!field) return null;
  const raw = input[field];
  const value = typeof raw === 'string' ? raw.trim() : '';
  const origin = isHttpUrl(value) ? value.slice(0, 200) : `Base64 (${value.length} characters)`;
  const bytes = await bytesOf(field, value, origin, fetchAudio);
  try {
    return { field, bytes, header: readWavHeader(bytes) };
  } catch (err) {
    if (!(err instanceof MediaInputError)) throw err;
    throw new SourceAudioError(
      `input.${field} ${err.message}; the demo sandbox reads WAV audio only (its own song results are WAV; the real service also takes MP3)`,
      origin,
    );
  }
}

async function bytesOf(
  field: string,
  value: string,
  origin: string,
  fetchAudio: (url: string) => Promise<Buffer>,
): Promise<Buffer> {
  if (value === '') throw new SourceAudioError(`input.${field} is empty`, origin);
  if (isHttpUrl(value)) {
    try {
      return await fetchAudio(value);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new SourceAudioError(`input.${field} could not be downloaded: ${reason}`, origin);
    }
  }
  const bytes = decodeMediaBase64(value);
  if (!bytes) throw new SourceAudioError(`input.${field} is neither an http(s) URL nor valid Base64`, origin);
  return bytes;
}

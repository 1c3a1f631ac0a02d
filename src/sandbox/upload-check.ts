/**
 * Checks an upload request body `{file_name, file_data}` (field notes: the real upload endpoint)
 * and tells the type of the uploaded bytes from their first bytes. Every failure is a 400 whose
 * message names the field.
 */
import { jsonTypeOf, UPLOAD_LIMITS } from '../shared/catalog/index.ts';
import { isPlainObject } from './create-validation.ts';
import { badRequest } from './error-body.ts';
import { decodeMediaBase64 } from './media/index.ts';

const UPLOAD_EXTENSIONS = UPLOAD_LIMITS.extensions;
const UPLOAD_NAME_MAX_CHARS = UPLOAD_LIMITS.nameMaxChars;
const UPLOAD_MAX_BYTES = UPLOAD_LIMITS.maxBytes;

export interface CheckedUpload {
  fileName: string;
  /** The file name's extension, lower case, without the dot. */
  extension: string;
  bytes: Buffer;
}

/** Parses and checks the body text of an upload; throws a 400 naming the field at the first problem. */
export function parseUploadBody(bodyText: string): CheckedUpload {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch (err) {
    throw badRequest(`body: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!isPlainObject(body)) throw badRequest(`body: must be a JSON object, got ${jsonTypeOf(body)}`);
  const fileName = requiredString(body, 'file_name');
  const extension = extensionOf(fileName);
  const bytes = decodeFileData(requiredString(body, 'file_data'));
  return { fileName, extension, bytes };
}

function requiredString(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined || value === null || value === '') throw badRequest(`${key} is required`);
  if (typeof value !== 'string') throw badRequest(`${key} must be a string, got ${jsonTypeOf(value)}`);
  return value;
}

/** The extension of a file name that passes the length and extension rules. */
function extensionOf(fileName: string): string {
  if (fileName.length > UPLOAD_NAME_MAX_CHARS) {
    throw badRequest(`file_name must be at most ${UPLOAD_NAME_MAX_CHARS} characters, got ${fileName.length}`);
  }
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  if (!UPLOAD_EXTENSIONS.includes(extension)) {
    throw badRequest(
      `file_name must end in one of .${UPLOAD_EXTENSIONS.join(', .')}, got '${fileName.slice(0, UPLOAD_NAME_MAX_CHARS)}'`,
    );
  }
  return extension;
}

/** The bytes of `file_data`: Base64, with or without a `data:` URI prefix, at most UPLOAD_MAX_BYTES. */
function decodeFileData(text: string): Buffer {
  const bytes = decodeMediaBase64(text);
  if (!bytes) throw badRequest('file_data is not valid Base64 (a data: URI prefix is allowed)');
  if (bytes.length > UPLOAD_MAX_BYTES) {
    throw badRequest(
      `file_data decodes to ${bytes.length} bytes; at most ${UPLOAD_MAX_BYTES} (10 MB) are taken`,
    );
  }
  return bytes;
}

/** The media type of a file from its first bytes; `application/octet-stream` when none is known. */
export function sniffContentType(bytes: Buffer): string {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) {
    return 'image/png';
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/wav';
  if (bytes.length >= 8 && ascii(4, 8) === 'ftyp') return 'video/mp4';
  if (bytes.length >= 3 && ascii(0, 3) === 'ID3') return 'audio/mpeg';
  // an MPEG audio frame header: 11 set sync bits
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) return 'audio/mpeg';
  return 'application/octet-stream';
}

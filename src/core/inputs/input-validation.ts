/**
 * Checks one task input before the task is queued. The value may be an http(s) URL (not
 * fetched), a `data:` URI, raw Base64, or an absolute local file path. Every refusal is an
 * InputValidationError whose message names the field and the problem.
 */

import type { Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { hasAllowedImageUrlExtension } from '../../shared/catalog/index.ts';
import { formatOfMime, type SniffedType, sniffFileType } from '../../shared/media/index.ts';
import { Base64DecodeError, decodeBase64Strict, parseDataUri } from './base64-strict.ts';
import {
  IMAGE_HEAD_BYTES,
  ImageHeaderError,
  readImageHeaderFromBytes,
  readImageHeaderFromOpenFile,
} from './image-header.ts';
import { classifyInputValue } from './input-classification.ts';
import {
  dimensionProblem,
  faceSwapUrlProblem,
  type InputRule,
  maxBytesFor,
  typeProblem,
  videoProblem,
} from './input-rules.ts';
import { describeOverLimit, inputProblem } from './input-validation-error.ts';
import { type Mp4Facts, Mp4ReadError, readMp4Facts, readMp4FactsFromBytes } from './mp4-facts.ts';
import { readAt } from './positional-read.ts';

export interface UrlInput {
  source: 'url';
  field: string;
  url: string;
}

export interface Base64Input {
  source: 'base64';
  field: string;
  /** Sniffed from the decoded bytes. */
  mime: string;
  /** Decoded length in bytes. */
  bytes: number;
  width?: number;
  height?: number;
  /** A video's length and frames. */
  durationSeconds?: number;
  frames?: number;
}

export interface FileInput {
  source: 'file';
  field: string;
  path: string;
  mime: string;
  ext: string;
  size: number;
  width?: number;
  height?: number;
  durationSeconds?: number;
  frames?: number;
}

export type ValidatedInput = UrlInput | Base64Input | FileInput;

export async function validateInput(value: string, rule: InputRule): Promise<ValidatedInput> {
  const classified = await classifyInputValue(value, rule.kind);
  switch (classified.kind) {
    case 'url':
      return validateUrl(classified.url, rule);
    case 'data-uri':
      return validateDataUri(classified.value, rule);
    case 'base64':
      return validateBase64(classified.value, '', rule);
    case 'file':
      return validateFile(classified.path, rule);
    case 'refused':
      throw inputProblem(rule.field, classified.problem);
  }
}

function validateUrl(url: string, rule: InputRule): UrlInput {
  if (rule.faceSwap && !hasAllowedImageUrlExtension(url)) {
    throw inputProblem(rule.field, faceSwapUrlProblem());
  }
  return { source: 'url', field: rule.field, url };
}

function validateDataUri(value: string, rule: InputRule): Promise<Base64Input> {
  const dataUri = guardDecode(rule, () => parseDataUri(value));
  return validateBase64(dataUri.base64, dataUri.mediaType, rule);
}

const BASE64_SUBJECT = 'the Base64 data';

async function validateBase64(text: string, declaredType: string, rule: InputRule): Promise<Base64Input> {
  const bytes = guardDecode(rule, () => decodeBase64Strict(text));
  if (bytes.length === 0) refuse(rule, `${BASE64_SUBJECT} is empty`);
  const maxBytes = maxBytesFor(rule);
  if (bytes.length > maxBytes) refuse(rule, `${BASE64_SUBJECT} ${describeOverLimit(bytes.length, maxBytes)}`);
  const type = checkType(BASE64_SUBJECT, sniffFileType(bytes.subarray(0, IMAGE_HEAD_BYTES)), rule);
  if (declaredType !== '' && !sameMediaType(declaredType, type.mime)) {
    refuse(rule, `the data URI says ${declaredType} but the data is ${type.mime}`);
  }
  const result: Base64Input = { source: 'base64', field: rule.field, mime: type.mime, bytes: bytes.length };
  if (rule.kind === 'video') {
    return { ...result, ...(await checkVideo(rule, BASE64_SUBJECT, () => readMp4FactsFromBytes(bytes))) };
  }
  if (rule.kind !== 'image') return result;
  const header = guardImage(rule, BASE64_SUBJECT, () => readImageHeaderFromBytes(bytes));
  checkDimensions(header.width, header.height, rule);
  return { ...result, width: header.width, height: header.height };
}

async function validateFile(path: string, rule: InputRule): Promise<FileInput> {
  const stats = await fileStats(path, rule);
  if (stats.size === 0) refuse(rule, 'file is empty');
  const maxBytes = maxBytesFor(rule);
  if (stats.size > maxBytes) refuse(rule, `file ${describeOverLimit(stats.size, maxBytes)}`);
  const handle = await openFile(path, rule);
  try {
    return await validateOpenFile(handle, path, stats.size, rule);
  } finally {
    await handle.close();
  }
}

async function validateOpenFile(
  handle: FileHandle,
  path: string,
  size: number,
  rule: InputRule,
): Promise<FileInput> {
  const subject = JSON.stringify(basename(path));
  const head = await readAt(handle, 0, IMAGE_HEAD_BYTES);
  if (head.length === 0) refuse(rule, 'file is empty');
  const type = checkType(subject, sniffFileType(head), rule);
  const result: FileInput = { source: 'file', field: rule.field, path, mime: type.mime, ext: type.ext, size };
  if (rule.kind === 'video') {
    const read = (position: number, length: number) => readAt(handle, position, length);
    return { ...result, ...(await checkVideo(rule, subject, () => readMp4Facts(read, size))) };
  }
  if (rule.kind !== 'image') return result;
  const header = await guardImageAsync(rule, subject, () => readImageHeaderFromOpenFile(handle, head));
  checkDimensions(header.width, header.height, rule);
  return { ...result, width: header.width, height: header.height };
}

async function fileStats(path: string, rule: InputRule): Promise<Stats> {
  let stats: Stats;
  try {
    stats = await stat(path); // follows symbolic links
  } catch (error) {
    refuse(rule, fileErrorProblem(error, path));
  }
  if (stats.isDirectory()) refuse(rule, `is a folder, not a file: ${path}`);
  if (!stats.isFile()) refuse(rule, `not a regular file: ${path}`);
  return stats;
}

async function openFile(path: string, rule: InputRule): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (error) {
    refuse(rule, fileErrorProblem(error, path));
  }
}

function fileErrorProblem(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return `file not found: ${path}`;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied: ${path}`;
  if (code === 'ELOOP') return `too many symbolic links: ${path}`;
  if (code === 'ENAMETOOLONG') return 'file path is too long';
  return `cannot read ${path}: ${code ?? String(error)}`;
}

function checkType(subject: string, type: SniffedType | null, rule: InputRule): SniffedType {
  const problem = typeProblem(subject, type, rule);
  if (problem !== null || type === null) refuse(rule, problem ?? `${subject} has an unknown type`);
  return type;
}

function checkDimensions(width: number, height: number, rule: InputRule): void {
  const problem = dimensionProblem(width, height, rule);
  if (problem !== null) refuse(rule, problem);
}

/** Reads a video's facts and checks them against the limits; its size, length and frames. */
async function checkVideo(
  rule: InputRule,
  subject: string,
  read: () => Promise<Mp4Facts>,
): Promise<{ width: number; height: number; durationSeconds: number; frames: number }> {
  let facts: Mp4Facts;
  try {
    facts = await read();
  } catch (error) {
    if (error instanceof Mp4ReadError) refuse(rule, `${subject} is not a readable video (${error.message})`);
    throw error;
  }
  const problem = videoProblem(facts, rule);
  if (problem !== null) refuse(rule, problem);
  return facts;
}

function guardDecode<T>(rule: InputRule, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof Base64DecodeError) refuse(rule, error.message);
    throw error;
  }
}

function guardImage<T>(rule: InputRule, subject: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ImageHeaderError)
      refuse(rule, `${subject} is not a readable image (${error.message})`);
    throw error;
  }
}

async function guardImageAsync<T>(rule: InputRule, subject: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ImageHeaderError)
      refuse(rule, `${subject} is not a readable image (${error.message})`);
    throw error;
  }
}

function refuse(rule: InputRule, problem: string): never {
  throw inputProblem(rule.field, problem);
}

/** A data URI's declared type must agree with the bytes; `application/octet-stream` says nothing. */
function sameMediaType(declared: string, sniffed: string): boolean {
  if (declared === 'application/octet-stream') return true;
  // other spellings (image/jpg, audio/x-wav, …) are the media table's
  return (formatOfMime(declared)?.mime ?? declared) === sniffed;
}

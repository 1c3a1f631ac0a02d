/**
 * Create-time check of image inputs (URL or Base64): the value must decode to an image whose
 * sides are both under LIMITS.imageMaxSideExclusive (spec 8). URL inputs are fetched.
 * Every failure is a 400 naming the field.
 */
import { LIMITS } from '../shared/catalog/index.ts';
import type { ImageInputField } from './create-validation.ts';
import { badRequest } from './error-body.ts';
import { decodeImageInput } from './media/index.ts';

export interface CheckedImage {
  name: string;
  data: Buffer;
  width: number;
  height: number;
  format: string;
}

/** Decodes every image input; throws a 400 for the first field (in input order) that fails. */
export async function checkImageInputs(
  fields: ImageInputField[],
  fetchUrl: (url: string) => Promise<Buffer>,
): Promise<CheckedImage[]> {
  const settled = await Promise.allSettled(fields.map((f) => checkOne(f, fetchUrl)));
  const images: CheckedImage[] = [];
  for (const [i, result] of settled.entries()) {
    if (result.status === 'rejected') throw result.reason;
    const field = fields[i]!;
    images.push({ name: field.name, ...result.value });
  }
  return images;
}

async function checkOne(field: ImageInputField, fetchUrl: (url: string) => Promise<Buffer>) {
  let decoded: Awaited<ReturnType<typeof decodeImageInput>>;
  try {
    decoded = await decodeImageInput(field.value, fetchUrl);
  } catch (err) {
    throw badRequest(`input.${field.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const max = LIMITS.imageMaxSideExclusive;
  if (decoded.width >= max || decoded.height >= max) {
    throw badRequest(
      `input.${field.name}: image is ${decoded.width}x${decoded.height} pixels; each side must be under ${max}`,
    );
  }
  return decoded;
}

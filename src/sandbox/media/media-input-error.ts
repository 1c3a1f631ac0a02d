/**
 * An input (an image value, a WAV buffer) that cannot be used. The message says exactly what is
 * wrong, without naming a request field: the caller knows which field it passed and adds that.
 */
export class MediaInputError extends Error {
  override readonly name = 'MediaInputError';
}

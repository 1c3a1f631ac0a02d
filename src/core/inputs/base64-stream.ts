/**
 * Base64 of a byte stream, one output chunk per input chunk, memory independent of the total.
 * Base64 maps 3 bytes to 4 characters, so a chunk encodes on its own only when its length is a
 * multiple of 3: the 1 or 2 bytes left over are carried to the front of the next chunk, and
 * padding appears only at the very end. The output concatenates to exactly
 * `Buffer.from(allBytes).toString('base64')` (standard alphabet, "=" padding, no line breaks).
 */
export async function* base64Chunks(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let carry = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const data = carry.length === 0 ? bytes : Buffer.concat([carry, bytes]);
    const whole = data.length - (data.length % 3);
    if (whole > 0) yield Buffer.from(data.toString('base64', 0, whole), 'latin1');
    carry = Buffer.from(data.subarray(whole)); // a copy: the caller may reuse its chunk
  }
  if (carry.length > 0) yield Buffer.from(carry.toString('base64'), 'latin1');
}

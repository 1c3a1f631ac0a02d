/** Writing 16-bit PCM WAV files. */

const HEADER_BYTES = 44;

/** Wraps mono or interleaved 16-bit samples in a canonical RIFF/WAVE file (fmt + data chunks). */
export function encodeWav16(samples: Int16Array, sampleRate: number, channels = 1): Buffer {
  const dataBytes = samples.length * 2;
  const out = Buffer.alloc(HEADER_BYTES + dataBytes);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * channels * 2, 28);
  out.writeUInt16LE(channels * 2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  const body = new Int16Array(out.buffer, out.byteOffset + HEADER_BYTES, samples.length);
  if (isLittleEndianHost()) body.set(samples);
  else for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, HEADER_BYTES + i * 2);
  return out;
}

function isLittleEndianHost(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}

/** A most-significant-bit-first writer with Exp-Golomb codes, as H.264 syntax needs. */
export class BitWriter {
  private bytes: Uint8Array;
  private length = 0;
  private current = 0;
  private used = 0;

  constructor(capacity = 64) {
    this.bytes = new Uint8Array(Math.max(16, capacity));
  }

  /** Writes the low `count` bits of `value` (count up to 32). */
  bits(value: number, count: number): this {
    for (let i = count - 1; i >= 0; i--) this.bit((value >>> i) & 1);
    return this;
  }

  bit(value: number): this {
    this.current = (this.current << 1) | (value & 1);
    this.used++;
    if (this.used === 8) this.flushByte();
    return this;
  }

  /** Unsigned Exp-Golomb code ue(v). */
  ue(value: number): this {
    const codeNum = value + 1;
    const width = 32 - Math.clz32(codeNum);
    this.bits(0, width - 1);
    return this.bits(codeNum, width);
  }

  /** Signed Exp-Golomb code se(v): 1, -1, 2, -2, ... map to 1, 2, 3, 4, ... */
  se(value: number): this {
    return this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  get byteAligned(): boolean {
    return this.used === 0;
  }

  /** Zero bits up to the next byte boundary. */
  alignZero(): this {
    while (this.used !== 0) this.bit(0);
    return this;
  }

  /** Whole bytes; the writer must be byte aligned. */
  raw(data: Uint8Array): this {
    if (this.used !== 0) throw new Error('BitWriter.raw needs a byte-aligned position');
    this.reserve(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
    return this;
  }

  /** rbsp_trailing_bits(): a stop bit, then zero bits to the byte boundary. */
  trailingBits(): this {
    this.bit(1);
    return this.alignZero();
  }

  toBytes(): Uint8Array {
    if (this.used !== 0) throw new Error('BitWriter.toBytes needs a byte-aligned position');
    return this.bytes.slice(0, this.length);
  }

  private flushByte(): void {
    this.reserve(1);
    this.bytes[this.length++] = this.current;
    this.current = 0;
    this.used = 0;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

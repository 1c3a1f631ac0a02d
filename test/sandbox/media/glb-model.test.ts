/**
 * The sandbox's 3D model: a GLB parsed back by hand (header, chunks, alignment, accessors within
 * the BIN chunk, POSITION bounds matching the stored floats) and checked by the Khronos glTF
 * validator (the npm build of the official one), which must find no error and no warning.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { generateGlbModel } from '../../../src/sandbox/media/glb-model.ts';
import { sniffFileType } from '../../../src/shared/media/index.ts';

interface ValidationReport {
  issues: { numErrors: number; numWarnings: number; messages: { code: string; message: string }[] };
  info?: { drawCallCount?: number; totalVertexCount?: number; totalTriangleCount?: number };
}
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(bytes: Uint8Array, options?: Record<string, unknown>): Promise<ValidationReport>;
};

const COMPONENT_BYTES: Record<number, number> = { 5123: 2, 5126: 4 };
const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC3: 3, VEC4: 4 };

interface Accessor {
  bufferView: number;
  componentType: number;
  count: number;
  type: string;
  min: number[];
  max: number[];
}

/** The GLB's two chunks, read as the glTF 2.0 spec lays them out. */
function readGlb(bytes: Buffer) {
  expect(bytes.toString('latin1', 0, 4)).toBe('glTF');
  expect(bytes.readUInt32LE(4)).toBe(2);
  expect(bytes.readUInt32LE(8)).toBe(bytes.length);
  const jsonLength = bytes.readUInt32LE(12);
  expect(bytes.toString('latin1', 16, 20)).toBe('JSON');
  expect(jsonLength % 4).toBe(0);
  const json = JSON.parse(bytes.toString('utf8', 20, 20 + jsonLength));
  const binAt = 20 + jsonLength;
  const binLength = bytes.readUInt32LE(binAt);
  expect(bytes.toString('latin1', binAt + 4, binAt + 8)).toBe('BIN\0');
  expect(binLength % 4).toBe(0);
  expect(binAt + 8 + binLength).toBe(bytes.length);
  return { json, bin: bytes.subarray(binAt + 8) };
}

describe('the sandbox GLB model', () => {
  const bytes = generateGlbModel({ seedText: 'a red teapot' });

  it('is a glTF 2.0 binary: header, a JSON chunk and a BIN chunk, each 4-byte aligned, accessors inside the BIN chunk with their bounds', () => {
    const { json, bin } = readGlb(bytes);
    expect(json.asset.version).toBe('2.0');
    expect(json.buffers).toEqual([{ byteLength: bin.length }]);
    const accessors = json.accessors as Accessor[];
    for (const accessor of accessors) {
      const view = json.bufferViews[accessor.bufferView];
      const size = (COMPONENT_BYTES[accessor.componentType] ?? 0) * (COMPONENTS[accessor.type] ?? 0);
      expect(size).toBeGreaterThan(0);
      expect(view.byteOffset % 4).toBe(0);
      expect(view.byteLength).toBe(accessor.count * size);
      expect(view.byteOffset + view.byteLength).toBeLessThanOrEqual(bin.length);
      expect(accessor.min).toHaveLength(COMPONENTS[accessor.type] as number);
      expect(accessor.max).toHaveLength(COMPONENTS[accessor.type] as number);
    }
    // POSITION's bounds are those of the stored floats: a half-metre cube around the origin
    const position = accessors[json.meshes[0].primitives[0].attributes.POSITION] as Accessor;
    const view = json.bufferViews[position.bufferView];
    const stored = Array.from({ length: position.count * 3 }, (_, i) =>
      bin.readFloatLE(view.byteOffset + i * 4),
    );
    const xs = stored.filter((_, i) => i % 3 === 0);
    expect([Math.min(...xs), Math.max(...xs)]).toEqual([position.min[0], position.max[0]]);
    expect(position.min).toEqual([-0.5, -0.5, -0.5]);
    expect(position.max).toEqual([0.5, 0.5, 0.5]);
    // every index names a vertex
    const indices = accessors[json.meshes[0].primitives[0].indices] as Accessor;
    const indexView = json.bufferViews[indices.bufferView];
    for (let i = 0; i < indices.count; i++) {
      expect(bin.readUInt16LE(indexView.byteOffset + i * 2)).toBeLessThan(position.count);
    }
  });

  it('passes the Khronos glTF validator with no error or warning: 12 triangles, one draw call', async () => {
    const report = await validator.validateBytes(new Uint8Array(bytes));
    expect(report.issues.messages.filter((m) => m.code !== 'UNUSED_OBJECT')).toEqual([]);
    expect(report.issues.numErrors).toBe(0);
    expect(report.issues.numWarnings).toBe(0);
    expect(report.info).toMatchObject({ drawCallCount: 1, totalVertexCount: 24, totalTriangleCount: 12 });
  });

  it('is recognised as a 3D model by its bytes, and is the same for the same words only', () => {
    expect(sniffFileType(bytes)).toMatchObject({ kind: '3d', ext: 'glb' });
    expect(generateGlbModel({ seedText: 'a red teapot' }).equals(bytes)).toBe(true);
    expect(generateGlbModel({ seedText: 'a blue teapot' }).equals(bytes)).toBe(false);
  });
});

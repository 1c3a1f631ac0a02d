/**
 * A 3D model as the service's 3D models give it: a glTF 2.0 binary (GLB). The sandbox's model is
 * a cube whose faces are coloured from the task's words (the same words, the same model), with
 * normals and per-vertex colours, so any glTF viewer shows it lit. The file is one JSON chunk and
 * one BIN chunk, each padded to 4 bytes (the JSON with spaces, the BIN with zeros), and every
 * accessor has its min and max (POSITION must).
 */

import { seededRandom } from './seeded-random.ts';
import { hashText } from './text-hash.ts';

const GLB_MAGIC = 0x46546c67; // 'glTF'
const JSON_CHUNK = 0x4e4f534a; // 'JSON'
const BIN_CHUNK = 0x004e4942; // 'BIN\0'
const HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;

const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;

/** The six faces of a unit cube: outward normal and the four corners, counter-clockwise from outside. */
const FACES: readonly { normal: readonly number[]; corners: readonly (readonly number[])[] }[] = [
  {
    normal: [1, 0, 0],
    corners: [
      [1, -1, 1],
      [1, -1, -1],
      [1, 1, -1],
      [1, 1, 1],
    ],
  },
  {
    normal: [-1, 0, 0],
    corners: [
      [-1, -1, -1],
      [-1, -1, 1],
      [-1, 1, 1],
      [-1, 1, -1],
    ],
  },
  {
    normal: [0, 1, 0],
    corners: [
      [-1, 1, 1],
      [1, 1, 1],
      [1, 1, -1],
      [-1, 1, -1],
    ],
  },
  {
    normal: [0, -1, 0],
    corners: [
      [-1, -1, -1],
      [1, -1, -1],
      [1, -1, 1],
      [-1, -1, 1],
    ],
  },
  {
    normal: [0, 0, 1],
    corners: [
      [-1, -1, 1],
      [1, -1, 1],
      [1, 1, 1],
      [-1, 1, 1],
    ],
  },
  {
    normal: [0, 0, -1],
    corners: [
      [1, -1, -1],
      [-1, -1, -1],
      [-1, 1, -1],
      [1, 1, -1],
    ],
  },
];

export interface ModelParams {
  /** The words the colours come from (a prompt, an input's address). */
  seedText: string;
  /** Half the cube's side in metres (glTF's unit); 0.5 when not given. */
  halfSide?: number;
}

/** Min and max per component of a list of vectors of `size` numbers. */
function bounds(values: readonly number[], size: number): { min: number[]; max: number[] } {
  const min = Array.from({ length: size }, () => Number.POSITIVE_INFINITY);
  const max = Array.from({ length: size }, () => Number.NEGATIVE_INFINITY);
  values.forEach((v, i) => {
    const c = i % size;
    min[c] = Math.min(min[c] as number, v);
    max[c] = Math.max(max[c] as number, v);
  });
  // as stored: 32-bit floats (a validator compares the stored values with these)
  return { min: min.map(Math.fround), max: max.map(Math.fround) };
}

/** Pads `bytes` to a multiple of 4 with `fill`. */
function padded(bytes: Buffer, fill: number): Buffer {
  const extra = (4 - (bytes.length % 4)) % 4;
  return extra === 0 ? bytes : Buffer.concat([bytes, Buffer.alloc(extra, fill)]);
}

function chunk(type: number, body: Buffer): Buffer {
  const head = Buffer.alloc(CHUNK_HEADER_BYTES);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(type, 4);
  return Buffer.concat([head, body]);
}

function floats(values: readonly number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => {
    out.writeFloatLE(v, i * 4);
  });
  return out;
}

/** A GLB of a cube with a colour per face, from `params.seedText`. */
export function generateGlbModel(params: ModelParams): Buffer {
  const half = params.halfSide ?? 0.5;
  const random = seededRandom(hashText(params.seedText));
  const positions: number[] = [];
  const normals: number[] = [];
  const colors: number[] = [];
  const indices: number[] = [];
  FACES.forEach((face, f) => {
    const color = [0.2 + 0.8 * random(), 0.2 + 0.8 * random(), 0.2 + 0.8 * random(), 1];
    for (const corner of face.corners) {
      positions.push(...corner.map((c) => c * half));
      normals.push(...face.normal);
      colors.push(...color);
    }
    const base = f * 4;
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  });
  const vertexCount = positions.length / 3;
  const parts = [floats(positions), floats(normals), floats(colors)];
  const indexBytes = Buffer.alloc(indices.length * 2);
  indices.forEach((v, i) => {
    indexBytes.writeUInt16LE(v, i * 2);
  });
  // each view starts at a multiple of 4 (the float views are whole multiples; the indices last)
  const views: { byteOffset: number; byteLength: number; target: number }[] = [];
  let offset = 0;
  for (const part of [...parts, indexBytes]) {
    views.push({
      byteOffset: offset,
      byteLength: part.length,
      target: part === indexBytes ? ELEMENT_ARRAY_BUFFER : ARRAY_BUFFER,
    });
    offset += part.length;
  }
  const bin = padded(Buffer.concat([...parts, indexBytes]), 0);
  const json = {
    asset: { version: '2.0', generator: 'Media Task Studio sandbox' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'model' }],
    meshes: [
      {
        name: 'model',
        primitives: [
          { attributes: { POSITION: 0, NORMAL: 1, COLOR_0: 2 }, indices: 3, material: 0, mode: 4 },
        ],
      },
    ],
    materials: [
      { pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1], metallicFactor: 0, roughnessFactor: 0.8 } },
    ],
    buffers: [{ byteLength: bin.length }],
    bufferViews: views.map((v) => ({ buffer: 0, ...v })),
    accessors: [
      { bufferView: 0, componentType: FLOAT, count: vertexCount, type: 'VEC3', ...bounds(positions, 3) },
      { bufferView: 1, componentType: FLOAT, count: vertexCount, type: 'VEC3', ...bounds(normals, 3) },
      { bufferView: 2, componentType: FLOAT, count: vertexCount, type: 'VEC4', ...bounds(colors, 4) },
      {
        bufferView: 3,
        componentType: UNSIGNED_SHORT,
        count: indices.length,
        type: 'SCALAR',
        min: [Math.min(...indices)],
        max: [Math.max(...indices)],
      },
    ],
  };
  const jsonChunk = chunk(JSON_CHUNK, padded(Buffer.from(JSON.stringify(json), 'utf8'), 0x20));
  const binChunk = chunk(BIN_CHUNK, bin);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(GLB_MAGIC, 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(HEADER_BYTES + jsonChunk.length + binChunk.length, 8);
  return Buffer.concat([header, jsonChunk, binChunk]);
}

/** A short playable MP4 (H.264 I_PCM) showing moving shapes derived from a prompt. */
import { idrSlice, pictureParameterSet, type StreamConfig, sequenceParameterSet } from './video-h264.ts';
import { muxMp4 } from './video-mp4-box.ts';
import { renderScene, sceneFor } from './video-scene.ts';

export interface VideoParams {
  prompt: string;
  /** Length in seconds; the file holds round(seconds * fps) frames (at least 1). */
  seconds: number;
  /** Displayed size; odd values are rounded up to even. Default 160 x 96. */
  width?: number;
  height?: number;
  /** Integer frames per second, 1 to 60. Default 10. */
  fps?: number;
}

export const DEFAULT_VIDEO = { width: 160, height: 96, fps: 10 } as const;
/** The largest side a video is made with, in pixels. */
export const MAX_VIDEO_SIDE = 1920;
const MAX_SIDE = MAX_VIDEO_SIDE;
/** I_PCM costs 384 bytes per macroblock and frame: refuse files above this size. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

export function generateVideoMp4(params: VideoParams): Buffer {
  const config = streamConfig(params);
  const frames = Math.max(1, Math.round(params.seconds * config.fps));
  const estimate = frames * (config.codedWidth / 16) * (config.codedHeight / 16) * 390;
  if (estimate > MAX_FILE_BYTES) {
    throw new RangeError(
      `video of ${frames} frames at ${config.width} x ${config.height} would take ${estimate} bytes`,
    );
  }
  const scene = sceneFor(params.prompt, config.width, config.height);
  const samples: Uint8Array[] = [];
  for (let i = 0; i < frames; i++) {
    const picture = renderScene(scene, i / config.fps, config.codedWidth, config.codedHeight);
    samples.push(lengthPrefixed(idrSlice(picture, i % 2)));
  }
  const file = muxMp4({
    width: config.width,
    height: config.height,
    timescale: config.fps * 1000,
    sampleDelta: 1000,
    sps: sequenceParameterSet(config),
    pps: pictureParameterSet(),
    samples,
  });
  return Buffer.from(file.buffer, file.byteOffset, file.byteLength);
}

function streamConfig(params: VideoParams): StreamConfig {
  if (!Number.isFinite(params.seconds) || params.seconds <= 0) {
    throw new RangeError(`seconds must be a positive number, got ${params.seconds}`);
  }
  const fps = params.fps ?? DEFAULT_VIDEO.fps;
  if (!Number.isInteger(fps) || fps < 1 || fps > 60)
    throw new RangeError(`fps must be an integer from 1 to 60, got ${fps}`);
  const width = evenSide('width', params.width ?? DEFAULT_VIDEO.width);
  const height = evenSide('height', params.height ?? DEFAULT_VIDEO.height);
  return {
    width,
    height,
    codedWidth: Math.ceil(width / 16) * 16,
    codedHeight: Math.ceil(height / 16) * 16,
    fps,
  };
}

function evenSide(name: string, side: number): number {
  if (!Number.isInteger(side) || side < 2 || side > MAX_SIDE) {
    throw new RangeError(`${name} must be an integer from 2 to ${MAX_SIDE}, got ${side}`);
  }
  return side + (side % 2);
}

function lengthPrefixed(nal: Uint8Array): Uint8Array {
  const out = new Uint8Array(nal.length + 4);
  new DataView(out.buffer).setUint32(0, nal.length);
  out.set(nal, 4);
  return out;
}

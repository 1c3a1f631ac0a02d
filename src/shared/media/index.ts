export * from './media-kinds.ts';
export {
  recogniseAudio,
  recogniseImage,
  recogniseModel3d,
  recogniseVideo,
} from './media-recognition.ts';
export * from './picture-decoding.ts';

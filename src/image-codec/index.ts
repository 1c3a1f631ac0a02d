/**
 * The image codec: sharp, loaded lazily, shared by the app's thumbnails (src/main/downloads) and the
 * sandbox's image generation (src/sandbox). It imports neither of them; both import this.
 */
export { ImageCodecUnavailableError, imageCodecBuild, loadSharp, type Sharp } from './image-codec.ts';

/** What the 3D viewer's place says when it cannot show the model (ModelViewer, LazyModelViewer). */

/** The viewer's code (its own chunk, or three.js's) could not be loaded. */
export const VIEWER_NOT_LOADED =
  'The 3D viewer could not be loaded. Export the model or drag it to another program.';

/** The computer cannot draw 3D (no WebGL). */
export const NO_3D_HERE =
  'This computer cannot draw 3D here. Export the model or drag it to another program.';

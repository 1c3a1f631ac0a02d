/**
 * The 3D viewer, loaded with its own chunk (three.js) only when a 3D result is opened. When that
 * chunk cannot be loaded (an app updated under a running window, a file that cannot be read),
 * the detail says so in words and offers the ways that need no viewer; the window stays (a
 * failed lazy import would otherwise end the whole page).
 */
import { lazy } from 'react';
import { VIEWER_NOT_LOADED } from './model-viewer-words.ts';

function ViewerNotLoaded(_: { url: string; title: string }) {
  return (
    <div className="model-viewer" data-testid="model-viewer" data-state="failed">
      <p className="model-viewer-note" role="alert">
        {VIEWER_NOT_LOADED}
      </p>
    </div>
  );
}

export const LazyModelViewer = lazy(() =>
  import('./ModelViewer.tsx').then(
    (module) => ({ default: module.ModelViewer }),
    () => ({ default: ViewerNotLoaded }),
  ),
);

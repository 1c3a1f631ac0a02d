/**
 * A 3D result in the detail view: the model turned with the pointer (drag), zoomed (wheel or
 * pinch) and, with the canvas focused, turned with the arrow keys; three lighting presets and
 * Reset view. three.js is loaded only when a 3D result is opened (its own chunk). Where the
 * computer cannot draw 3D (no WebGL) or the file cannot be read, it says so in words.
 */
import { useEffect, useRef, useState } from 'react';
import type { Lighting, ModelScene } from './model-scene.ts';
import { NO_3D_HERE, VIEWER_NOT_LOADED } from './model-viewer-words.ts';

const LIGHTING_WORDS: Record<Lighting, string> = { studio: 'Studio', soft: 'Soft', top: 'From above' };

/** The canvas's background: the theme's surface, read from the page's CSS. */
function surfaceColour(element: HTMLElement): string {
  const colour = getComputedStyle(element).getPropertyValue('--surface-2').trim();
  return colour || '#202024';
}

export function ModelViewer({ url, title }: { url: string; title: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const sceneRef = useRef<ModelScene | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [problem, setProblem] = useState<string | null>(null);
  const [lighting, setLighting] = useState<Lighting>('studio');

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let gone = false;
    let scene: ModelScene | null = null;
    const observer = new ResizeObserver(() => {
      scene?.resize(canvas.clientWidth, canvas.clientHeight);
    });
    setState('loading');
    import('./model-scene.ts')
      .then(({ openModelScene }) => openModelScene(canvas, url, surfaceColour(canvas)))
      .then(
        (opened) => {
          if (gone) {
            opened.dispose();
            return;
          }
          scene = opened;
          sceneRef.current = opened;
          opened.resize(canvas.clientWidth, canvas.clientHeight);
          observer.observe(canvas);
          setState('ready');
        },
        (err: unknown) => {
          if (gone) return;
          const message = err instanceof Error ? err.message : String(err);
          setProblem(
            /WebGL/i.test(message)
              ? NO_3D_HERE
              : /dynamically imported module|module script/i.test(message)
                ? VIEWER_NOT_LOADED
                : message,
          );
          setState('failed');
        },
      );
    return () => {
      gone = true;
      observer.disconnect();
      scene?.dispose();
      sceneRef.current = null;
    };
  }, [url]);

  return (
    <div className="model-viewer" data-testid="model-viewer" data-state={state}>
      <canvas
        ref={canvasRef}
        className="model-viewer-canvas"
        role="img"
        aria-label={`3D model: ${title}. Drag to turn, scroll to zoom; arrow keys turn it when focused.`}
        // focusable: the arrow keys turn the model while it has the focus
        tabIndex={0}
        data-testid="model-canvas"
      />
      {state === 'loading' ? <p className="model-viewer-note">Loading the 3D model…</p> : null}
      {problem ? (
        <p className="model-viewer-note" role="alert">
          {problem}
        </p>
      ) : null}
      {state === 'ready' ? (
        <div className="model-viewer-controls">
          <label>
            <span>Lighting</span>
            <select
              value={lighting}
              onChange={(event) => {
                const next = event.target.value as Lighting;
                setLighting(next);
                sceneRef.current?.setLighting(next);
              }}
            >
              {Object.entries(LIGHTING_WORDS).map(([value, words]) => (
                <option key={value} value={value}>
                  {words}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="button button-small" onClick={() => sceneRef.current?.resetView()}>
            Reset view
          </button>
        </div>
      ) : null}
    </div>
  );
}

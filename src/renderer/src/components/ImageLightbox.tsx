/**
 * A window-filling viewer for one image result, on the native modal <dialog> (the page behind is
 * inert, Escape closes it, focus returns to the opener):
 * - fit: the whole picture in the window (never enlarged past its own size);
 * - actual size: one image pixel per screen pixel, moved around by dragging, the arrow keys or
 *   the scroll wheel (the stage is a focusable scroll area); double-click toggles the two,
 *   keeping the clicked point under the pointer;
 * - compare (when there is an input to compare with): before and after split where the user
 *   drags on the picture (BeforeAfterSlider).
 * Keys: 0 fit, 1 actual size, C compare.
 */
import {
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useModalDialog } from '../hooks/useModalDialog.ts';
import { BeforeAfterSlider } from './BeforeAfterSlider.tsx';

export type LightboxMode = 'fit' | 'actual' | 'compare';

export interface ImageLightboxProps {
  src: string;
  title: string;
  /** The input to compare with, or null when there is none. */
  before: string | null;
  /** The picture may have transparent parts: drawn on a checkerboard. */
  checkerboard?: boolean;
  onClose(): void;
}

interface Size {
  width: number;
  height: number;
}

/** Where the stage should scroll once the actual-size picture is laid out: a picture point under a stage point. */
interface Anchor {
  /** 0..1 across and down the picture. */
  x: number;
  y: number;
  /** Pixels from the stage's top left corner. */
  atX: number;
  atY: number;
}

export function ImageLightbox({ src, title, before, checkerboard = false, onClose }: ImageLightboxProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const stageRef = useRef<HTMLElement>(null);
  const imageRef = useRef<HTMLImageElement>(null);
  const anchor = useRef<Anchor | null>(null);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  const titleId = useId();
  const [mode, setMode] = useState<LightboxMode>('fit');
  const [natural, setNatural] = useState<Size | null>(null);
  const [shownWidth, setShownWidth] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;

  useModalDialog(dialogRef, onClose, () => stageRef.current);

  // The shown size (for the zoom text) follows the window and the mode.
  useEffect(() => {
    const image = imageRef.current;
    if (!image || mode === 'compare') return;
    const measure = () => setShownWidth(image.getBoundingClientRect().width);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(image);
    return () => observer.disconnect();
  }, [mode]);

  // Actual size: scroll so the anchored picture point sits where it was (centre by default).
  useLayoutEffect(() => {
    const stage = stageRef.current;
    if (mode !== 'actual' || !stage || !natural) return;
    const wanted = anchor.current ?? {
      x: 0.5,
      y: 0.5,
      atX: stage.clientWidth / 2,
      atY: stage.clientHeight / 2,
    };
    anchor.current = null;
    const width = natural.width / ratio;
    const height = natural.height / ratio;
    const offsetX = Math.max(0, (stage.clientWidth - width) / 2);
    const offsetY = Math.max(0, (stage.clientHeight - height) / 2);
    stage.scrollLeft = offsetX + wanted.x * width - wanted.atX;
    stage.scrollTop = offsetY + wanted.y * height - wanted.atY;
  }, [mode, natural, ratio]);

  // on the stage, not the picture: a drag's pointer capture sends the clicks to the stage
  const zoomAt = (event: MouseEvent<HTMLElement>) => {
    const stage = stageRef.current;
    const image = imageRef.current;
    if (!stage || !image) return;
    if (mode === 'actual') {
      setMode('fit');
      return;
    }
    if (event.target !== image) return;
    const box = image.getBoundingClientRect();
    const stageBox = stage.getBoundingClientRect();
    anchor.current = {
      x: (event.clientX - box.left) / box.width,
      y: (event.clientY - box.top) / box.height,
      atX: event.clientX - stageBox.left,
      atY: event.clientY - stageBox.top,
    };
    setMode('actual');
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    const stage = stageRef.current;
    if (mode !== 'actual' || !stage || event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, left: stage.scrollLeft, top: stage.scrollTop };
    stage.setPointerCapture(event.pointerId);
    setDragging(true);
    event.preventDefault();
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const stage = stageRef.current;
    const start = drag.current;
    if (!stage || !start) return;
    stage.scrollLeft = start.left - (event.clientX - start.x);
    stage.scrollTop = start.top - (event.clientY - start.y);
  };
  const endDrag = () => {
    drag.current = null;
    setDragging(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === '0') setMode('fit');
    else if (event.key === '1') setMode('actual');
    else if ((event.key === 'c' || event.key === 'C') && before) setMode('compare');
    else return;
    event.preventDefault();
  };

  const zoomText =
    mode === 'actual'
      ? '100%'
      : natural && shownWidth
        ? `${Math.round(((shownWidth * ratio) / natural.width) * 100)}%`
        : '';
  const modeButton = (value: LightboxMode, label: string, keys: string) => (
    <button
      type="button"
      className="button button-small"
      aria-pressed={mode === value}
      aria-keyshortcuts={keys}
      onClick={() => setMode(value)}
    >
      {label}
    </button>
  );

  return (
    <dialog
      ref={dialogRef}
      className="lightbox"
      aria-labelledby={titleId}
      data-testid="lightbox"
      data-mode={mode}
      onKeyDown={onKeyDown}
    >
      <header className="lightbox-bar">
        <h2 id={titleId} className="lightbox-title">
          {title}
        </h2>
        <span className="lightbox-zoom" data-testid="lightbox-zoom">
          {mode === 'compare' ? null : zoomText}
          {natural ? (
            <span className="lightbox-size">
              {mode === 'compare' ? '' : ' · '}
              {natural.width} × {natural.height}
            </span>
          ) : null}
        </span>
        <fieldset className="lightbox-tools">
          <legend className="visually-hidden">View</legend>
          {modeButton('fit', 'Fit to window', '0')}
          {modeButton('actual', 'Actual size', '1')}
          {before ? modeButton('compare', 'Compare with input', 'C') : null}
        </fieldset>
        <button
          type="button"
          className="icon-button lightbox-close"
          aria-label="Close viewer"
          aria-keyshortcuts="Escape"
          onClick={onClose}
        >
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {mode === 'compare' && before ? (
        <div
          className="lightbox-compare"
          style={
            natural
              ? ({
                  '--natural-w': natural.width / ratio,
                  '--natural-h': natural.height / ratio,
                } as CSSProperties)
              : undefined
          }
        >
          <BeforeAfterSlider before={before} after={src} title={title} fill checkerboard={checkerboard} />
        </div>
      ) : (
        <section
          ref={stageRef}
          className={`lightbox-stage lightbox-${mode}${dragging ? ' lightbox-dragging' : ''}`}
          data-testid="lightbox-stage"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll area the arrow keys move when the picture is larger than the window
          tabIndex={0}
          aria-label={
            mode === 'actual'
              ? 'Picture at actual size: drag, scroll or use the arrow keys to move around'
              : 'Picture fitted to the window'
          }
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
          onDoubleClick={zoomAt}
        >
          <img
            ref={imageRef}
            className={`lightbox-image${checkerboard ? ' on-checkerboard' : ''}`}
            src={src}
            alt={`Result: ${title}`}
            draggable={false}
            onLoad={(event) => {
              const image = event.currentTarget;
              setNatural({ width: image.naturalWidth, height: image.naturalHeight });
              setShownWidth(image.getBoundingClientRect().width);
            }}
            style={
              mode === 'actual' && natural
                ? { width: natural.width / ratio, height: natural.height / ratio }
                : undefined
            }
          />
        </section>
      )}
    </dialog>
  );
}

/**
 * The input and the result on top of each other, split where the user drags on the picture or
 * where the (keyboard-operable) range says. `labels` names the two pictures otherwise (the
 * library's Compare of any two results); by default they are Before and After. `fill` makes it take its container's whole box
 * (the image viewer: the picture as large as fits, never past the size the viewer gives in
 * --natural-w / --natural-h); otherwise it is as wide as its container and at most 480 px high.
 */
import { type PointerEvent, useRef, useState } from 'react';

export function BeforeAfterSlider({
  before,
  after,
  title,
  fill = false,
  checkerboard = false,
  labels,
}: {
  before: string;
  after: string;
  title: string;
  fill?: boolean;
  /** The result may have transparent parts: drawn on a checkerboard (the input stays as it is). */
  checkerboard?: boolean;
  /** The left (under) and right pictures' names, instead of Before and After. */
  labels?: { left: string; right: string };
}) {
  const left = labels?.left ?? 'Before';
  const right = labels?.right ?? 'After';
  const [position, setPosition] = useState(50);
  const dragging = useRef(false);

  const follow = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0) return;
    const share = ((event.clientX - box.left) / box.width) * 100;
    setPosition(Math.round(Math.min(100, Math.max(0, share))));
  };

  // dragging on the picture is the pointer's way to move the split; the range below is the keyboard's
  const frame = (
    <div
      className="before-after-frame"
      data-testid="before-after-frame"
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        dragging.current = true;
        event.currentTarget.setPointerCapture(event.pointerId);
        event.preventDefault();
        follow(event);
      }}
      onPointerMove={(event) => {
        if (dragging.current) follow(event);
      }}
      onPointerUp={() => {
        dragging.current = false;
      }}
      onPointerCancel={() => {
        dragging.current = false;
      }}
    >
      <img
        className="before-after-image"
        src={before}
        alt={labels ? left : `Before: input of ${title}`}
        draggable={false}
      />
      <img
        className={`before-after-image before-after-after${checkerboard ? ' on-checkerboard' : ''}`}
        src={after}
        alt={labels ? right : `After: result of ${title}`}
        draggable={false}
        style={{ clipPath: `inset(0 0 0 ${position}%)` }}
      />
      <div className="before-after-divider" style={{ left: `${position}%` }} aria-hidden="true" />
      <span className="before-after-label before-after-label-left" aria-hidden="true">
        {left}
      </span>
      <span className="before-after-label before-after-label-right" aria-hidden="true">
        {right}
      </span>
    </div>
  );

  return (
    <div className={`before-after${fill ? ' before-after-fill' : ''}`} data-testid="before-after">
      {fill ? <div className="before-after-area">{frame}</div> : frame}
      <label className="before-after-range">
        <span>
          {labels ? (
            <>
              Split between <bdi>{left}</bdi> and <bdi>{right}</bdi>
            </>
          ) : (
            'Compare before and after'
          )}
        </span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={position}
          aria-valuetext={
            labels
              ? `${position}% ${left}, ${100 - position}% ${right}`
              : `${position}% before, ${100 - position}% after`
          }
          onChange={(event) => setPosition(Number(event.target.value))}
        />
      </label>
    </div>
  );
}

/** The input and the result on top of each other, split where the (keyboard-operable) range says. */
import { useState } from 'react';

export function BeforeAfterSlider({
  before,
  after,
  title,
}: {
  before: string;
  after: string;
  title: string;
}) {
  const [position, setPosition] = useState(50);
  return (
    <div className="before-after" data-testid="before-after">
      <div className="before-after-frame">
        <img className="before-after-image" src={before} alt={`Before: input of ${title}`} />
        <img
          className="before-after-image before-after-after"
          src={after}
          alt={`After: result of ${title}`}
          style={{ clipPath: `inset(0 0 0 ${position}%)` }}
        />
        <div className="before-after-divider" style={{ left: `${position}%` }} aria-hidden="true" />
        <span className="before-after-label before-after-label-left" aria-hidden="true">
          Before
        </span>
        <span className="before-after-label before-after-label-right" aria-hidden="true">
          After
        </span>
      </div>
      <label className="before-after-range">
        <span>Compare before and after</span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={position}
          aria-valuetext={`${position}% before, ${100 - position}% after`}
          onChange={(event) => setPosition(Number(event.target.value))}
        />
      </label>
    </div>
  );
}

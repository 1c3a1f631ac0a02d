/**
 * Pictures compared: split (two of them on top of each other, divided where the user drags or
 * where the range says: the detail's BeforeAfterSlider) or side by side (all of them at the same
 * size). With more than two, Left and Right choose which two the split shows; choosing on one
 * side the picture the other shows swaps them, so the split never shows one picture against itself.
 */
import { type CSSProperties, useId, useState } from 'react';
import { BeforeAfterSlider } from '../../components/BeforeAfterSlider.tsx';

export interface ComparedPicture {
  id: string;
  title: string;
  url: string;
  checkerboard: boolean;
  /** The picture's size, when recorded (the split keeps its proportions). */
  width: number | null;
  height: number | null;
}

type Layout = 'split' | 'side';

function Choice({
  label,
  value,
  pictures,
  onChange,
}: {
  label: string;
  value: number;
  pictures: readonly ComparedPicture[];
  onChange(index: number): void;
}) {
  const id = useId();
  return (
    <span className="compare-choice">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        title={pictures[value]?.title}
        onChange={(e) => onChange(Number(e.target.value))}
      >
        {pictures.map((p, i) => (
          <option key={p.id} value={i}>
            {i + 1}. {p.title}
          </option>
        ))}
      </select>
    </span>
  );
}

export function PictureCompare({ pictures }: { pictures: readonly ComparedPicture[] }) {
  const [layout, setLayout] = useState<Layout>('split');
  const [left, setLeft] = useState(0);
  const [right, setRight] = useState(1);
  const a = pictures[left] ?? pictures[0];
  const b = pictures[right] ?? pictures[1];
  const choose = (side: 'left' | 'right', index: number) => {
    const [mine, other] = side === 'left' ? [left, right] : [right, left];
    const [setMine, setOther] = side === 'left' ? [setLeft, setRight] : [setRight, setLeft];
    if (index === other) setOther(mine);
    setMine(index);
  };
  return (
    <div className="compare-pictures" data-testid="compare-pictures" data-layout={layout}>
      <div className="compare-toolbar">
        {/* biome-ignore lint/a11y/useSemanticElements: two toggle buttons, not a form's fieldset */}
        <div className="library-side" role="group" aria-label="Layout">
          <button
            type="button"
            className="button button-small"
            aria-pressed={layout === 'split'}
            onClick={() => setLayout('split')}
          >
            Split
          </button>
          <button
            type="button"
            className="button button-small"
            aria-pressed={layout === 'side'}
            onClick={() => setLayout('side')}
          >
            Side by side
          </button>
        </div>
        {layout === 'split' && pictures.length > 2 ? (
          <>
            <Choice label="Left" value={left} pictures={pictures} onChange={(i) => choose('left', i)} />
            <Choice label="Right" value={right} pictures={pictures} onChange={(i) => choose('right', i)} />
          </>
        ) : null}
      </div>
      {layout === 'split' && a && b ? (
        <div
          className="compare-split"
          style={
            a.width && a.height
              ? ({ '--natural-w': a.width, '--natural-h': a.height } as CSSProperties)
              : undefined
          }
        >
          <BeforeAfterSlider
            key={`${a.id}-${b.id}`}
            before={a.url}
            after={b.url}
            title={`${a.title} and ${b.title}`}
            checkerboard={b.checkerboard}
            labels={{ left: a.title, right: b.title }}
            fill
          />
        </div>
      ) : (
        <ul className={`compare-side compare-count-${pictures.length}`}>
          {pictures.map((p, i) => (
            <li key={p.id} data-testid="compare-picture" data-task-id={p.id}>
              <img
                src={p.url}
                alt={p.title}
                draggable={false}
                className={p.checkerboard ? 'on-checkerboard' : undefined}
              />
              <span className="compare-caption-text">
                {i + 1}. {p.title}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

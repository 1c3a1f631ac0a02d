/**
 * Lyrics with their section markers coloured: a textarea over a highlight layer that scrolls with
 * it, buttons (and Alt+1..4) that insert a marker on its own line at the caret, and the list of
 * malformed markers with their line numbers.
 */
import { type KeyboardEvent, useId, useLayoutEffect, useMemo, useRef } from 'react';
import { LIMITS } from '../../../../shared/index.ts';
import { CharCounter, FieldMessage } from '../../components/FieldMessage.tsx';
import {
  findLyricsProblems,
  insertMarker,
  LYRICS_MARKERS,
  type LyricsMarker,
  segmentLyrics,
} from './lyrics-markers.ts';

export interface LyricsEditorProps {
  value: string;
  onChange(value: string): void;
  error?: string | null;
}

export function LyricsEditor({ value, onChange, error }: LyricsEditorProps) {
  const id = useId();
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const layerRef = useRef<HTMLDivElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const segments = useMemo(() => segmentLyrics(value), [value]);
  const problems = useMemo(() => findLyricsProblems(value), [value]);

  useLayoutEffect(() => {
    const area = areaRef.current;
    if (area && pendingCaret.current !== null) {
      area.focus();
      area.setSelectionRange(pendingCaret.current, pendingCaret.current);
      pendingCaret.current = null;
    }
    if (area && layerRef.current) layerRef.current.scrollTop = area.scrollTop;
  });

  const insert = (marker: LyricsMarker) => {
    const area = areaRef.current;
    const start = area?.selectionStart ?? value.length;
    const end = area?.selectionEnd ?? value.length;
    const edit = insertMarker(value, start, end, marker);
    pendingCaret.current = edit.caret;
    onChange(edit.text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!event.altKey || event.ctrlKey || event.metaKey) return;
    const index = ['1', '2', '3', '4'].indexOf(event.key);
    const marker = LYRICS_MARKERS[index];
    if (marker) {
      event.preventDefault();
      insert(marker);
    }
  };

  const describedBy = [
    `${id}-counter`,
    problems.length > 0 ? `${id}-problems` : '',
    error ? `${id}-error` : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className="field lyrics-field">
      <div className="field-label-row">
        <label htmlFor={`${id}-area`} className="field-label">
          Lyrics <span className="optional">(optional)</span>
        </label>
        <CharCounter id={`${id}-counter`} length={value.length} max={LIMITS.lyricsMaxChars} />
      </div>
      <div className="marker-toolbar" role="toolbar" aria-label="Insert a section marker">
        {LYRICS_MARKERS.map((marker, index) => (
          <button
            key={marker}
            type="button"
            className={`button button-small marker-button marker-${marker}`}
            onClick={() => insert(marker)}
            aria-keyshortcuts={`Alt+${index + 1}`}
            title={`Alt+${index + 1}`}
          >
            Insert [{marker}]
          </button>
        ))}
      </div>
      <div className="lyrics-editor">
        <div ref={layerRef} className="lyrics-layer" aria-hidden="true">
          {segments.map((segment, index) =>
            segment.kind === 'text' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity beyond their position
              <span key={index}>{segment.text}</span>
            ) : (
              <mark
                // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity beyond their position
                key={index}
                className={
                  segment.kind === 'marker'
                    ? `lyrics-mark lyrics-${segment.marker}`
                    : `lyrics-mark lyrics-${segment.kind}`
                }
              >
                {segment.text}
              </mark>
            ),
          )}
          {'\n'}
        </div>
        <textarea
          ref={areaRef}
          id={`${id}-area`}
          className="lyrics-input"
          value={value}
          spellCheck={false}
          rows={12}
          placeholder={'[verse]\nFirst line of the verse\n\n[chorus]\nThe hook'}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          onScroll={(event) => {
            if (layerRef.current) layerRef.current.scrollTop = event.currentTarget.scrollTop;
          }}
        />
      </div>
      {problems.length > 0 ? (
        <div id={`${id}-problems`} className="lyrics-problems" data-testid="lyrics-problems">
          <p className="lyrics-problems-title">
            {problems.length === 1 ? '1 marker needs fixing' : `${problems.length} markers need fixing`}
          </p>
          <ul>
            {problems.map((problem) => (
              <li
                key={`${problem.line}:${problem.column}:${problem.kind}`}
                data-testid="lyrics-problem"
                data-line={problem.line}
              >
                {problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <FieldMessage id={`${id}-error`} error={error} />
    </div>
  );
}

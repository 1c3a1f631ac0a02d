/**
 * Lyrics with their section markers coloured: a textarea over a highlight layer that scrolls with
 * it, buttons (and Alt+1..4) that insert a marker on its own line at the caret as typing would
 * (Ctrl/Cmd+Z takes it back), and above the text the list of malformed markers: each one a
 * button that selects it in the text. Below it, what queueing changes (common tags from Suno or
 * a chat assistant, `[Verse 1]`, become the service's markers) and the tags the service does
 * not know, sent as written: neither blocks Queue.
 */
import { type KeyboardEvent, useId, useLayoutEffect, useMemo, useRef } from 'react';
import { LIMITS, lyricsTagChangeWords, mapLyricsTags } from '../../../../shared/index.ts';
import { CharCounter, FieldMessage } from '../../components/FieldMessage.tsx';
import {
  findLyricsProblems,
  LYRICS_MARKERS,
  type LyricsMarker,
  type LyricsProblem,
  markerInsertion,
  offsetOf,
  problemPlace,
  segmentLyrics,
} from './lyrics-markers.ts';
import { replaceRange } from './text-insert.ts';

export interface LyricsEditorProps {
  value: string;
  onChange(value: string): void;
  error?: string | null;
  /** `Lyrics` unless told (`Lyrics for the new part`). */
  label?: string;
  /** The input field it edits: `lyrics` unless told (`edit_lyrics`). */
  field?: string;
}

const PLACEHOLDER =
  'Optional: the words to sing. Put a section marker such as [verse] or [chorus] on its own line before each part.';

export function LyricsEditor({
  value,
  onChange,
  error,
  label = 'Lyrics',
  field = 'lyrics',
}: LyricsEditorProps) {
  const id = useId();
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const layerRef = useRef<HTMLDivElement>(null);
  const segments = useMemo(() => segmentLyrics(value), [value]);
  const found = useMemo(() => findLyricsProblems(value), [value]);
  const problems = found.filter((p) => p.blocking);
  const unknown = found.filter((p) => !p.blocking);
  const mapped = useMemo(() => lyricsTagChangeWords(mapLyricsTags(value).changes), [value]);

  useLayoutEffect(() => {
    const area = areaRef.current;
    if (area && layerRef.current) layerRef.current.scrollTop = area.scrollTop;
  });

  const insert = (marker: LyricsMarker) => {
    const area = areaRef.current;
    if (!area) return;
    const edit = markerInsertion(area.value, area.selectionStart, area.selectionEnd, marker);
    replaceRange(area, edit.start, edit.end, edit.insert, edit.caret);
  };

  /** Selects the problem's text and scrolls the textarea to it (its own mark in the layer gives its height). */
  const goTo = (problem: LyricsProblem) => {
    const area = areaRef.current;
    if (!area) return;
    const start = offsetOf(area.value, problem.line, problem.column);
    area.focus();
    area.setSelectionRange(start, start + problem.text.length);
    const mark = layerRef.current?.querySelector<HTMLElement>(`mark[data-place="${problemPlace(problem)}"]`);
    if (mark) area.scrollTop = Math.max(0, mark.offsetTop - area.clientHeight / 3);
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
    problems.length > 0 ? `${id}-problems-title` : '',
    mapped ? `${id}-mapped` : '',
    unknown.length > 0 ? `${id}-unknown` : '',
    error ? `${id}-error` : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className="field lyrics-field">
      <div className="field-label-row">
        <label htmlFor={`${id}-area`} className="field-label">
          {label} <span className="optional">(optional)</span>
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
      {problems.length > 0 ? (
        <div className="lyrics-problems" data-testid="lyrics-problems" data-field={`${field}-markers`}>
          <p id={`${id}-problems-title`} className="lyrics-problems-title">
            {problems.length === 1 ? '1 marker needs fixing' : `${problems.length} markers need fixing`}
          </p>
          <ul>
            {problems.map((problem) => (
              <li
                key={`${problem.line}:${problem.column}:${problem.kind}`}
                data-testid="lyrics-problem"
                data-line={problem.line}
              >
                <button type="button" className="lyrics-problem-link" onClick={() => goTo(problem)}>
                  {problem.message}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
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
                data-place={segment.place}
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
          data-field={field}
          value={value}
          spellCheck={false}
          rows={12}
          placeholder={PLACEHOLDER}
          aria-describedby={describedBy}
          aria-invalid={error || problems.length > 0 ? true : undefined}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          onScroll={(event) => {
            if (layerRef.current) layerRef.current.scrollTop = event.currentTarget.scrollTop;
          }}
        />
      </div>
      {mapped ? (
        <p id={`${id}-mapped`} className="field-hint lyrics-mapped" data-testid="lyrics-mapped">
          Sent as the service's markers: {mapped}
        </p>
      ) : null}
      {unknown.length > 0 ? (
        <ul id={`${id}-unknown`} className="field-hint lyrics-unknown" data-testid="lyrics-warnings">
          {unknown.map((problem) => (
            <li
              key={`${problem.line}:${problem.column}`}
              data-testid="lyrics-warning"
              data-line={problem.line}
            >
              <button type="button" className="lyrics-problem-link" onClick={() => goTo(problem)}>
                {problem.message}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <FieldMessage id={`${id}-error`} error={error} announce={false} />
    </div>
  );
}

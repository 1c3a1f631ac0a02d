/**
 * The media fields of the Other tab's task type (`image`, `audio`, `style_audio`…) as drop
 * targets under its JSON editor: a file dropped or picked there is written into the JSON as
 * that key's value (its local path, or its bytes when it has none) and checked by main at once.
 */
import { type DragEvent, useId, useRef, useState } from 'react';
import {
  catalogEntry,
  type MediaFieldRule,
  mediaFieldsOfRules,
  mediaKind,
} from '../../../../shared/index.ts';
import { invoke, pathForFile } from '../../bridge.ts';
import { useCompose } from '../../state/compose-state.ts';
import { checkInfo } from './compose-slots.ts';
import { readAsDataUrl } from './slot-actions.ts';

/** What the last file put in a key is, or why it cannot be used. */
interface KeyCheck {
  name: string;
  ok: boolean | null;
  text: string;
}

/** The JSON with `key` set to `value`, or null when the JSON is not an object to add to. */
function withKey(json: string, key: string, value: string): string | null {
  try {
    const parsed: unknown = JSON.parse(json);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    return JSON.stringify({ ...(parsed as Record<string, unknown>), [key]: value }, null, 2);
  } catch {
    return null;
  }
}

/** A drop target and Browse button that put a file into the JSON as `rule.field` and check it. */
export function MediaKey({ rule }: { rule: MediaFieldRule }) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [check, setCheck] = useState<KeyCheck | null>(null);
  const { words, show } = mediaKind(rule.kind);
  const kindWord = words.asked;

  const put = async (file: File) => {
    const value = pathForFile(file) || (await readAsDataUrl(file));
    const json = withKey(useCompose.getState().other.json, rule.field, value);
    if (json === null) {
      setCheck({ name: file.name, ok: false, text: 'Fix the JSON first: the file goes into its object' });
      return;
    }
    useCompose.getState().setOther({ json });
    setCheck({ name: file.name, ok: null, text: 'Checking…' });
    try {
      const result = await invoke('media.check', {
        field: rule.field,
        value,
        kind: rule.kind,
        ...(rule.faceSwap ? { faceSwap: true } : {}),
      });
      const text = result.ok
        ? `Ready${checkInfo(result) ? ` · ${checkInfo(result)}` : ''}`
        : (result.message ?? 'cannot be used').replace(`${rule.field}: `, '');
      setCheck({ name: file.name, ok: result.ok, text });
    } catch (err) {
      setCheck({ name: file.name, ok: false, text: err instanceof Error ? err.message : String(err) });
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void put(file);
  };
  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    if (!dragging) setDragging(true);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for files; its Browse button does the same from the keyboard
    <div
      className={`media-key${dragging ? ' drop-zone-active' : ''}`}
      data-testid="json-media-field"
      data-key={rule.field}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <span className="media-key-name">
        <code>"{rule.field}"</code>
        {rule.required ? null : <span className="optional"> (optional)</span>}: drop {kindWord} here, or
      </span>
      <button type="button" className="button button-small" onClick={() => fileRef.current?.click()}>
        Browse for "{rule.field}"
      </button>
      <input
        ref={fileRef}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        accept={show.accept}
        aria-label={`Choose a file for "${rule.field}"`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void put(file);
          event.target.value = '';
        }}
      />
      <p
        id={`${id}-check`}
        className={check?.ok === false ? 'media-key-check field-error' : 'media-key-check field-hint'}
        data-testid="json-media-check"
        aria-live="polite"
      >
        {check ? `${check.name}: ${check.text}` : ''}
      </p>
    </div>
  );
}

/** The drop targets of the chosen model and task type's media fields; nothing when it has none. */
export function OtherMediaFields({ model, taskType }: { model: string; taskType: string }) {
  const entry = catalogEntry(model, taskType);
  const rules = entry ? mediaFieldsOfRules(entry.input) : [];
  if (rules.length === 0) return null;
  return (
    <div className="media-keys">
      {rules.map((rule) => (
        <MediaKey key={`${model}/${taskType}:${rule.field}`} rule={rule} />
      ))}
    </div>
  );
}

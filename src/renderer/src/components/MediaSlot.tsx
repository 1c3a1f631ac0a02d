/**
 * One media input of the composer: a drop zone with click-to-browse, a URL field, a preview, and
 * the result of the check made the moment it is filled, shown on the slot itself.
 */
import { type DragEvent, type Ref, useEffect, useId, useRef, useState } from 'react';
import { clearSlot, putFile, putUrl } from '../features/compose/compose-actions.ts';
import { SLOT_RULES, type SlotField } from '../features/compose/compose-model.ts';
import { previewAllowed } from '../model/media-url.ts';
import { useCompose } from '../stores/compose-store.ts';

export interface MediaSlotProps {
  field: SlotField;
  /** Shown under the title, e.g. "The photo whose face is replaced". */
  description?: string;
  /** Message from the last Queue attempt about this field. */
  error?: string | null;
  optional?: boolean;
  inputRef?: Ref<HTMLButtonElement>;
}

function acceptOf(field: SlotField): string {
  const rule = SLOT_RULES[field];
  if (rule.kind === 'audio') return 'audio/*,.mp3,.wav,.flac,.ogg,.m4a';
  return rule.faceSwap ? '.jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp' : 'image/*';
}

export function MediaSlot({ field, description, error, optional, inputRef }: MediaSlotProps) {
  const rule = SLOT_RULES[field];
  const slot = useCompose((s) => s.slots[field]);
  const [dragging, setDragging] = useState(false);
  const [url, setUrl] = useState('');
  const [previewFailed, setPreviewFailed] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const kindWord = rule.kind === 'audio' ? 'audio file' : 'image';
  const fromUrl = slot.origin === 'url';
  useEffect(() => {
    if (!fromUrl) setUrl('');
  }, [fromUrl]);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) {
      void putFile(field, file);
      return;
    }
    const text = event.dataTransfer.getData('text/uri-list') || event.dataTransfer.getData('text/plain');
    if (text) void putUrl(field, text.split('\n')[0] ?? '');
  };
  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    if (!dragging) setDragging(true);
  };
  const applyUrl = () => {
    void putUrl(field, url);
  };

  const reason = error ?? (slot.status === 'bad' ? slot.message : null);
  const statusText =
    slot.status === 'checking'
      ? 'Checking…'
      : slot.status === 'ok'
        ? `Ready${slot.info ? ` · ${slot.info}` : ''}`
        : null;
  const showPreview =
    slot.previewUrl &&
    previewFailed !== slot.previewUrl &&
    previewAllowed(slot.previewUrl, window.location.origin);

  return (
    <fieldset
      className={`slot slot-${slot.status}${reason ? ' slot-has-error' : ''}`}
      data-testid="media-slot"
      data-field={field}
      data-status={slot.status}
      aria-describedby={`${id}-reason`}
    >
      <legend className="slot-title">
        {rule.label}
        {optional ? <span className="optional"> (optional)</span> : null}
      </legend>
      {description ? <p className="slot-description">{description}</p> : null}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for files; the Browse button and the URL box do the same from the keyboard */}
      <div
        className={`drop-zone${dragging ? ' drop-zone-active' : ''}`}
        data-testid="drop-zone"
        onDragEnter={onDragOver}
        onDragOver={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        {slot.status !== 'empty' ? (
          <div className="slot-filled">
            {showPreview ? (
              <img
                className="slot-preview"
                src={slot.previewUrl ?? undefined}
                alt={`Preview of ${rule.label}`}
                onError={() => setPreviewFailed(slot.previewUrl)}
              />
            ) : (
              <span className="slot-icon" aria-hidden="true">
                {rule.kind === 'audio' ? '♪' : '▣'}
              </span>
            )}
            <span className="slot-name" title={slot.label} data-testid="slot-name">
              {slot.label}
            </span>
          </div>
        ) : (
          <p className="drop-hint">Drop an {kindWord} here</p>
        )}
        <div className="slot-buttons">
          <button
            type="button"
            className="button button-small"
            ref={inputRef}
            onClick={() => fileRef.current?.click()}
          >
            {slot.status === 'empty' ? `Browse for ${rule.label}` : `Replace ${rule.label}`}
          </button>
          {slot.status !== 'empty' ? (
            <button
              type="button"
              className="button button-small button-quiet"
              onClick={() => clearSlot(field)}
            >
              Remove {rule.label}
            </button>
          ) : null}
        </div>
        <input
          ref={fileRef}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          accept={acceptOf(field)}
          aria-label={`Choose a file for ${rule.label}`}
          data-testid="slot-file-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void putFile(field, file);
            event.target.value = '';
          }}
        />
      </div>
      <div className="slot-url">
        <label htmlFor={`${id}-url`} className="visually-hidden">
          {rule.label} URL
        </label>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          placeholder="or paste a URL (https://…)"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              applyUrl();
            }
          }}
          onPaste={(event) => {
            const text = event.clipboardData.getData('text');
            if (/^https?:\/\//i.test(text.trim())) {
              event.preventDefault();
              setUrl(text.trim());
              void putUrl(field, text);
            }
          }}
        />
        <button type="button" className="button button-small" onClick={applyUrl} disabled={url.trim() === ''}>
          Use URL
        </button>
      </div>
      <p
        id={`${id}-reason`}
        className={reason ? 'slot-reason slot-reason-bad' : 'slot-reason'}
        data-testid="slot-reason"
        aria-live="polite"
      >
        {reason ?? statusText ?? ''}
      </p>
    </fieldset>
  );
}

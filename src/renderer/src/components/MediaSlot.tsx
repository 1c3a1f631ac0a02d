/**
 * One media input of the composer: a drop zone with click-to-browse, a URL field, a preview, and
 * the result of the check made the moment it is filled, shown on the slot itself. Several files
 * dropped at once fill the tab's following empty slots too; a picture or URL pasted while the
 * slot has focus (Ctrl/Cmd+V) goes in as if dropped.
 */
import { type ClipboardEvent, type DragEvent, type Ref, useEffect, useId, useRef, useState } from 'react';
import { mediaKind } from '../../../shared/media/index.ts';
import { isMultiSlot } from '../features/compose/compose-batch.ts';
import { SLOT_RULES, type SlotField } from '../features/compose/compose-slots.ts';
import { clearSlot, pasteIntoSlot, putFilesSaying, putUrl } from '../features/compose/slot-actions.ts';
import { slotWords } from '../features/compose/slot-words.ts';
import { previewAllowed } from '../model/media-url.ts';
import { useCompose } from '../state/compose-state.ts';

export interface MediaSlotProps {
  field: SlotField;
  /** Shown under the title, e.g. "The photo whose face is replaced". */
  description?: string;
  /** What is wrong with the slot's input: main's refusal or the live check. */
  error?: string | null;
  optional?: boolean;
  inputRef?: Ref<HTMLButtonElement>;
  /**
   * The slot's name when it is not its rule's (a catalog tab's slot named by the entry's field);
   * its buttons then say the media kind ("Replace video"), as the label may be "The video".
   */
  label?: string;
}

function acceptOf(field: SlotField): string {
  const rule = SLOT_RULES[field];
  if (rule.faceSwap) return '.jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp';
  return mediaKind(rule.kind).show.accept;
}

/** "Ctrl+V", or "⌘V" on a Mac. */
function pasteKeys(): string {
  return /mac/i.test(navigator.platform) ? '⌘V' : 'Ctrl+V';
}

export function MediaSlot({ field, description, error, optional, inputRef, label }: MediaSlotProps) {
  const rule = SLOT_RULES[field];
  const named = slotWords(field, label);
  const slot = useCompose((s) => s.slots[field]);
  const [dragging, setDragging] = useState(false);
  const [url, setUrl] = useState('');
  const [previewFailed, setPreviewFailed] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const { words, show } = mediaKind(rule.kind);
  const kindWord = words.slot;
  const fromUrl = slot.origin === 'url';
  useEffect(() => {
    if (!fromUrl) setUrl('');
  }, [fromUrl]);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) {
      putFilesSaying(field, files);
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
  const onPaste = (event: ClipboardEvent<HTMLFieldSetElement>) => {
    const inUrlBox = event.target instanceof HTMLInputElement && event.target.type === 'url';
    const hasFiles = event.clipboardData.files.length > 0;
    // text pasted into the URL box stays text unless it is a URL (used at once)
    if (inUrlBox && !hasFiles && !/^https?:\/\//i.test(event.clipboardData.getData('text').trim())) return;
    if (pasteIntoSlot(field, event.clipboardData)) {
      event.preventDefault();
      if (!hasFiles) setUrl(event.clipboardData.getData('text').trim());
    }
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
  const previewable = slot.previewUrl !== null && previewAllowed(slot.previewUrl, window.location.origin);
  // only a picture main's check passed (its size read from the header) goes to the decoder
  const showPreview = previewable && slot.status === 'ok' && previewFailed !== slot.previewUrl;
  const remote = fromUrl && !previewable;

  return (
    <fieldset
      className={`slot slot-${slot.status}${reason ? ' slot-has-error' : ''}`}
      data-testid="media-slot"
      data-field={field}
      data-status={slot.status}
      aria-describedby={`${id}-reason`}
      onPaste={onPaste}
    >
      <legend className="slot-title">
        {named.title}
        {optional ? <span className="optional"> (optional)</span> : null}
      </legend>
      {description ? <p className="slot-description">{description}</p> : null}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for files; the Browse button, a paste and the URL box do the same from the keyboard */}
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
                alt={named.preview}
                onError={() => setPreviewFailed(slot.previewUrl)}
              />
            ) : (
              <span className="slot-icon" aria-hidden="true">
                {remote ? '↗' : show.icon}
              </span>
            )}
            <span className="slot-name" title={slot.label} data-testid="slot-name">
              {slot.label}
            </span>
            {remote ? (
              <p className="slot-url-note" data-testid="slot-url-note">
                The service fetches this {words.fetched} from the web address when the task runs. The app does
                not download it, so there is no preview here.
              </p>
            ) : null}
          </div>
        ) : (
          <p className="drop-hint">
            Drop an {kindWord} here, or paste one ({pasteKeys()})
          </p>
        )}
        <div className="slot-buttons">
          <button
            type="button"
            className="button button-small"
            ref={inputRef}
            onClick={() => fileRef.current?.click()}
          >
            {slot.status === 'empty' ? named.browse : named.replace}
          </button>
          {slot.status !== 'empty' ? (
            <button
              type="button"
              className="button button-small button-quiet"
              onClick={() => clearSlot(field)}
            >
              {named.remove}
            </button>
          ) : null}
        </div>
        <input
          ref={fileRef}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          accept={acceptOf(field)}
          // a slot that takes a batch (one task per picture) takes several files from Browse too
          multiple={isMultiSlot(field)}
          aria-label={named.chooser}
          data-testid="slot-file-input"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            if (files.length > 0) putFilesSaying(field, files);
            event.target.value = '';
          }}
        />
      </div>
      <div className="slot-url">
        <label htmlFor={`${id}-url`} className="visually-hidden">
          {named.url}
        </label>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          placeholder="or give a web address (https://…)"
          value={url}
          aria-describedby={`${id}-url-hint`}
          onChange={(event) => setUrl(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
              event.preventDefault();
              applyUrl();
            }
          }}
        />
        <button type="button" className="button button-small" onClick={applyUrl} disabled={url.trim() === ''}>
          Use URL
        </button>
      </div>
      <p id={`${id}-url-hint`} className="visually-hidden">
        The service fetches a web address itself when the task runs; the app shows no preview of it.
      </p>
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

/**
 * The pictures of a slot that takes a batch (the face swap's targets, the From a result tab's
 * picture), the slot's own first: thumbnail, name, its check, Remove. Shown once more than one
 * picture is in.
 */
import { useCompose } from '../../state/compose-state.ts';
import type { MultiSlot } from './compose-batch.ts';
import { removePicture } from './slot-actions.ts';
import '../../styles/batches.css';

export function BatchPictures({ field, heading }: { field: MultiSlot; heading(count: number): string }) {
  const first = useCompose((s) => s.slots[field]);
  const extras = useCompose((s) => s.batch.extra[field]);
  if (extras.length === 0) return null;
  const pictures = [first, ...extras];
  const title = heading(pictures.length);
  return (
    <section className="batch-targets" aria-label={title} data-testid="batch-targets" data-field={field}>
      <h2 className="field-label batch-targets-title">{title}</h2>
      <ul className="batch-target-list">
        {pictures.map((picture, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the list's order is its identity (index 0 is the slot's own)
            key={`${index}:${picture.previewUrl ?? picture.label}`}
            className="batch-target"
            data-testid="batch-target"
            data-status={picture.status}
          >
            {picture.previewUrl && picture.status === 'ok' ? (
              <img src={picture.previewUrl} alt="" className="batch-target-thumb" />
            ) : null}
            <span className="batch-target-name">{picture.label || 'Empty'}</span>
            <span
              className={
                picture.status === 'bad' ? 'batch-target-state field-error' : 'batch-target-state muted'
              }
            >
              {picture.status === 'checking'
                ? 'Checking…'
                : picture.status === 'bad'
                  ? (picture.message ?? 'Cannot be used')
                  : (picture.info ?? '')}
            </span>
            <button
              type="button"
              className="button button-small button-quiet"
              aria-label={`Remove ${picture.label || `picture ${index + 1}`}`}
              onClick={() => removePicture(field, index)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Keep going from a saved result: the actions the catalog offers for its kind (result-fill.ts:
 * a song extended, edited or remixed; a picture upscaled, freed of its background, segmented,
 * used in a face swap, edited as image1, or used in a multi-face swap; made into a picture, a video
 * or a 3D model by the Image, Video and 3D tabs' models), grouped by what they make (Picture tools,
 * Into a video, Into 3D) so a picture's many stay readable. Each opens its form in
 * the composer filled in with the result. A task with several saved outputs asks which one.
 */
import '../../styles/result-forms.css';
import { useId } from 'react';
import { mediaKind } from '../../../../shared/media/index.ts';
import type { LoadedTask } from '../../model/task-status.ts';
import { openFromResult } from '../compose/compose-actions.ts';
import { actionGroupsFor, actionsFor, type KeepGoingAction } from '../compose/result-fill.ts';
import { outputName } from './task-media.ts';

/**
 * `shown`: the output the detail shows (use-shown-output.ts: null, the first); the section keeps
 * going from it, and choosing another output here shows that one. An output no action takes (a 3D
 * model) keeps going from the first of its task's outputs that some action takes, named as the
 * model's.
 */
export function ResultActions({
  task,
  shown,
  onShow,
}: {
  task: LoadedTask;
  shown: number | null;
  onShow(index: number): void;
}) {
  const id = useId();
  const saved = task.outputs.filter((o) => o.state === 'saved' && o.path && actionsFor(o.kind).length > 0);
  const viewed = task.outputs.find((o) => o.index === shown) ?? task.outputs[0];
  const viewedUsable = saved.find((o) => o.index === viewed?.index);
  const output = viewedUsable ?? saved[0];
  if (task.state !== 'saved' || !output) return null;
  const what = mediaKind(output.kind).words.result;
  // "this video", or "this 3D model's video" while the model (which no action takes) is shown
  // (not for an output of the same kind that was not saved: "this picture", not "this picture's picture")
  const whose =
    !viewedUsable && viewed && viewed.kind !== output.kind ? `${mediaKind(viewed.kind).words.result}'s ` : '';
  const groups = actionGroupsFor(output.kind);
  const button = (action: KeepGoingAction) => (
    <button
      key={action.id}
      type="button"
      className="button button-small"
      data-action={action.id}
      onClick={() => openFromResult(action.id, task, output.index)}
    >
      {action.label}
    </button>
  );

  return (
    <section className="result-actions" aria-labelledby={`${id}-title`} data-testid="result-actions">
      <h3 id={`${id}-title`} className="result-actions-title">
        Keep going from this {whose}
        {what}
      </h3>
      {saved.length > 1 ? (
        <label className="result-actions-output">
          <span>Use</span>
          <select value={output.index} onChange={(event) => onShow(Number(event.target.value))}>
            {saved.map((o) => (
              <option key={o.index} value={o.index}>
                {outputName(o, task.outputs)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {groups.length === 1 ? (
        <div className="result-actions-buttons">{groups[0]?.actions.map(button)}</div>
      ) : (
        groups.map((group) => (
          <fieldset key={group.makes} className="result-actions-group" data-makes={group.makes}>
            <legend className="result-actions-group-name">{group.label}</legend>
            <div className="result-actions-buttons">{group.actions.map(button)}</div>
          </fieldset>
        ))
      )}
    </section>
  );
}

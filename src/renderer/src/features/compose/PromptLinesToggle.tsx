/**
 * "One task per line" under a prompt (issue 22, item 3): each line of the prompt (the Song tab's
 * style prompt; its lyrics go with each) becomes its own task, queued as one batch with the others; alternatives `{dawn|noon|dusk}` make one task each
 * with or without it. The Queue button says the count and the cost line the total.
 */
import { useId } from 'react';
import { promptLines } from '../../../../shared/index.ts';
import { useCompose } from '../../state/compose-state.ts';
import '../../styles/batches.css';
import '../../styles/prompt-lists.css';

export function PromptLinesToggle({
  prompt,
  offHint = 'Batch: each line becomes its own task. {dawn|noon|dusk} makes one task per word either way.',
}: {
  prompt: string;
  /** What the switch does, said while it is off (the Song tab's lists style prompts). */
  offHint?: string;
}) {
  const id = useId();
  const tab = useCompose((s) => s.tab);
  const on = useCompose((s) => s.batch.promptLines?.[tab] === true);
  const lines = on ? promptLines(prompt).length : 0;
  return (
    <div className="song-split prompt-lines" data-testid="prompt-lines">
      <label className="checkbox-line">
        <input
          type="checkbox"
          checked={on}
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            const checked = event.target.checked;
            useCompose.setState((s) => ({
              batch: { ...s.batch, promptLines: { ...s.batch.promptLines, [s.tab]: checked } },
            }));
          }}
        />
        <span>One task per line</span>
      </label>
      <span id={`${id}-hint`} className="field-hint">
        {on
          ? `${lines} prompt${lines === 1 ? '' : 's'}: one task each, queued as one batch (at most 100).`
          : offHint}
      </span>
    </div>
  );
}

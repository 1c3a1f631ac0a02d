/**
 * What an exported task.json, or a result file the app made (issue 22, item 2: where its
 * parameters came from is shown), would queue, shown before anything is sent (security review, issue
 * 17, item 2): the task, the model id as sent, the price (or that none is published), the boards
 * it is put on, where each picture or sound comes from (only the export's own folder; else a file
 * the user picks here), the other input, and the webhook the file names, shown in full and off
 * unless the user keeps it. Queue sends the user's word to main, which queues what it read itself.
 */
import { useRef, useState } from 'react';
import {
  mediaKind,
  type TaskFileInput,
  type TaskFilePreview,
  taskFileInputText,
} from '../../../../shared/index.ts';
import { invoke, pathForFile } from '../../bridge.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { asSentence, toStudioError } from '../../model/studio-error.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';

/** A file the user picked for an input: its path (granted by the preload) and its name. */
interface Picked {
  path: string;
  name: string;
}

function PickInput({
  input,
  picked,
  onPick,
}: {
  input: TaskFileInput;
  picked: Picked | undefined;
  onPick(file: Picked): void;
}) {
  const fileRef = useRef<HTMLInputElement>(null);
  const { words, show } = mediaKind(input.kind);
  const kindWord = words.chosen;
  return (
    <span className="task-file-pick">
      <button type="button" className="button button-small" onClick={() => fileRef.current?.click()}>
        {picked ? `Pick another for ${input.field}` : `Pick ${kindWord} for ${input.field}`}
      </button>
      <input
        ref={fileRef}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        accept={show.accept}
        aria-label={`Choose a file for ${input.field}`}
        data-testid={`task-file-pick-${input.field}`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          const path = file ? pathForFile(file) : '';
          if (file && path) onPick({ path, name: file.name });
          event.target.value = '';
        }}
      />
      <span className={picked ? '' : 'muted'}>
        {picked
          ? `Picked: ${picked.name}`
          : input.required
            ? 'Required: nothing is queued without it.'
            : 'Optional: left out unless you pick one.'}
      </span>
    </span>
  );
}

export function TaskFileDialog({ preview, onClose }: { preview: TaskFilePreview; onClose(): void }) {
  const [picked, setPicked] = useState<Record<string, Picked>>({});
  const [keepWebhook, setKeepWebhook] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const missing = preview.inputs.filter(
    (i) => i.source === 'needs-file' && i.required && picked[i.field] === undefined,
  );
  const parameters =
    Object.keys(preview.parameters).length > 0 ? JSON.stringify(preview.parameters, null, 2) : 'none';

  const queue = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const files = Object.fromEntries(Object.entries(picked).map(([field, p]) => [field, p.path]));
      const task = await invoke('tasks.queueTaskFile', {
        importId: preview.importId,
        files,
        keepWebhook,
        // the price (or that none is published) is in front of the user when they press Queue
        acceptUnknownPrice: preview.priceMicros === null,
      });
      useTasks.getState().upsert([task]);
      // a result file found in this library by its checksum is no export: say the file it was
      const from = preview.recall ? preview.recall.fileName : 'the export';
      useUi.getState().pushToast('success', `Queued “${task.title}” again from ${from}`, {
        label: 'View in Activity',
        run: () => useUi.getState().navigate('activity'),
      });
      onClose();
    } catch (err) {
      setProblem(`Nothing was queued. ${asSentence(toStudioError(err).message)}`);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Queue this task from an export?"
      onClose={onClose}
      className="task-file-dialog"
      testId="task-file-dialog"
      actions={
        <>
          {missing.length > 0 ? (
            <span className="muted task-file-missing" data-testid="task-file-missing">
              Pick a file for {missing.map((i) => i.field).join(', ')} first.
            </span>
          ) : null}
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy || missing.length > 0}
            onClick={() => void queue()}
          >
            Queue
          </button>
        </>
      }
    >
      <p>Nothing is sent until you press Queue. The service bills the task like any other.</p>
      <dl className="facts" data-testid="task-file-summary">
        <dt>Task</dt>
        <dd>
          {preview.taskLabel} “{preview.title}”
        </dd>
        <dt>Model</dt>
        <dd>
          <code>{preview.model}</code> <span className="muted">({preview.taskType})</span>
        </dd>
        <dt>Price</dt>
        <dd data-testid="task-file-price">
          {preview.priceMicros === null ? `Unknown: ${preview.priceText}` : preview.priceText}
        </dd>
        {preview.boards.length > 0 ? (
          <>
            <dt>{preview.boards.length === 1 ? 'Board' : 'Boards'}</dt>
            <dd
              data-testid="task-file-boards"
              title="The new task is put on these boards (one missing is made)."
            >
              {preview.boards.join(', ')}
            </dd>
          </>
        ) : null}
        {preview.rerunOf ? (
          <>
            <dt>Re-run of</dt>
            <dd>“{preview.rerunOf.title}”</dd>
          </>
        ) : null}
        <dt>From</dt>
        <dd className="fact-value">{preview.file}</dd>
        {preview.recall ? (
          <>
            <dt>Parameters</dt>
            <dd data-testid="task-file-recall">{preview.recall.source}</dd>
          </>
        ) : null}
        {preview.inputs.map((input) => (
          <div
            key={input.field}
            className="task-file-input"
            data-testid="task-file-input"
            data-field={input.field}
          >
            <dt>{input.field}</dt>
            <dd>
              <span
                className={input.source !== 'needs-file' ? '' : picked[input.field] ? 'muted' : 'field-error'}
              >
                {taskFileInputText(input, preview)}
              </span>
              {input.source === 'needs-file' ? (
                <PickInput
                  input={input}
                  picked={picked[input.field]}
                  onPick={(file) => setPicked((now) => ({ ...now, [input.field]: file }))}
                />
              ) : null}
            </dd>
          </div>
        ))}
        <dt>Other input</dt>
        <dd>
          <pre className="fact-value task-file-parameters">{parameters}</pre>
        </dd>
      </dl>
      {preview.webhook ? (
        <div className="task-file-webhook" data-testid="task-file-webhook">
          <p>
            The file names a webhook: the service would tell this address about the task
            {preview.webhook.hasSecret ? ' (with a secret from the file)' : ''}:
          </p>
          <code className="task-file-url">{preview.webhook.endpoint}</code>
          <label className="checkbox-line">
            <input type="checkbox" checked={keepWebhook} onChange={(e) => setKeepWebhook(e.target.checked)} />
            Send this webhook too
          </label>
        </div>
      ) : null}
      {problem ? (
        <p className="field-error" role="alert" data-testid="task-file-problem">
          {problem}
        </p>
      ) : null}
    </Dialog>
  );
}

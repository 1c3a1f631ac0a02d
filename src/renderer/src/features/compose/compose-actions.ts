/**
 * Queueing from the composer: trying to queue the current tab (Queue or Ctrl/Cmd+Enter: every
 * problem shown and the first focused, or the user asked about an unknown price), queueing it
 * through the bridge with main's refusals put beside their fields, opening a re-run filled
 * in from `tasks.draftOf`, and opening a form with a library result as its input.
 */
import { StudioError } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import type { LoadedTask } from '../../model/task-status.ts';
import { type ComposeState, useCompose } from '../../state/compose-state.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { type ToastAction, toastError, useUi } from '../../state/ui-state.ts';
import { planBatch } from './compose-batch.ts';
import type { ComposeTab } from './compose-model.ts';
import { formProblems } from './compose-problems.ts';
import { formsFromDraft } from './compose-rerun.ts';
import { TAB_SLOTS } from './compose-slots.ts';
import { fillWithUndo } from './form-undo.ts';
import { isKindTab, type KindTab, kindEntryOf, kindFieldOrder, slotOfField } from './kind-tabs.ts';
import { mediaPlace } from './media-place.ts';
import { actionLabel, formsForResult, type ResultAction } from './result-fill.ts';
import { resultFieldOrder, resultSlotOf, sourceFieldOf } from './result-operations.ts';
import { checkSlot } from './slot-actions.ts';
import { unknownPriceToAsk } from './unknown-price.ts';

/** Fields each tab shows, to tell whether an error from main can sit next to its field. */
const SHOWN_FIELDS: Record<Exclude<ComposeTab, 'fromResult' | 'pictures' | KindTab>, readonly string[]> = {
  song: ['style_prompt', 'negative_prompt', 'lyrics', 'duration', 'style_audio'],
  faceSwap: ['target_image', 'swap_image', 'target_faces_index', 'swap_faces_index'],
  imageEdit: ['image1', 'image2', 'image3', 'prompt', 'negative_prompt', 'seed', 'steps', 'flow_shift'],
  other: ['model', 'task_type', 'input'],
};

/** The field of the tab that shows `field` of the input (the From a result tab's source is its slot). */
function shownField(tab: ComposeTab, field: string): string | null {
  if (isKindTab(tab)) {
    // a media field is shown by its slot
    const compose = useCompose.getState();
    const entry = kindEntryOf(tab, compose.kinds[tab]);
    const slot = entry ? slotOfField(tab, entry, field) : null;
    return slot ?? (kindFieldOrder(tab, compose.kinds[tab]).includes(field) ? field : null);
  }
  if (tab !== 'fromResult' && tab !== 'pictures') return SHOWN_FIELDS[tab].includes(field) ? field : null;
  const form = useCompose.getState().fromResult;
  const operation = tab === 'pictures' ? form.tool : form.operation;
  if (field === sourceFieldOf(operation)) return resultSlotOf(operation);
  return resultFieldOrder(operation).includes(field) ? field : null;
}
const COMMON_FIELDS = ['title', 'webhook_config.endpoint', 'webhook_config.secret'];

/** The budget refusal starts in lower case ("this task ($0.10) would…"); it is shown as a sentence. */
function asSentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** Where main's refusal of a field goes: beside the field (true), or the form's own line. */
function showFieldError(tab: ComposeTab, wireField: string | null, message: string): boolean {
  const compose = useCompose.getState();
  const inputField = wireField ? wireField.replace(/^input\./, '') : null;
  // the Other tab's keys are all in its JSON editor
  const field = tab === 'other' && wireField?.startsWith('input') ? 'input' : inputField;
  const shown = field ? (COMMON_FIELDS.includes(field) ? field : shownField(tab, field)) : null;
  if (shown) {
    compose.setFieldError(tab, shown, message);
    return true;
  }
  compose.setFormError(message);
  return false;
}

/** Error toasts of the last Queue: they go as soon as the form is edited (the fix is under way). */
let queueErrorToasts: number[] = [];

function toastQueueError(message: string, action?: ToastAction): void {
  queueErrorToasts.push(useUi.getState().pushToast('error', message, action ?? null));
}

function formChanged(now: ComposeState, before: ComposeState): boolean {
  return (
    now.tab !== before.tab ||
    now.song !== before.song ||
    now.faceSwap !== before.faceSwap ||
    now.imageEdit !== before.imageEdit ||
    now.fromResult !== before.fromResult ||
    now.other !== before.other ||
    now.kinds !== before.kinds ||
    now.slots !== before.slots ||
    now.common !== before.common
  );
}

useCompose.subscribe((now, before) => {
  if (queueErrorToasts.length === 0 || !formChanged(now, before)) return;
  const { dismissToast } = useUi.getState();
  for (const id of queueErrorToasts) dismissToast(id);
  queueErrorToasts = [];
});

function goToActivity(): void {
  useUi.getState().navigate('activity');
}

/** The element of the composer that edits `field` (an input, or the first control of a slot or list). */
function fieldElement(field: string): HTMLElement | null {
  const panel = document.getElementById('compose-panel');
  if (!panel) return null;
  const base = field.startsWith('input.') ? 'input' : field;
  // a key of the Other tab's input: its field in the generated form, else the JSON editor
  const holder =
    panel.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`) ??
    panel.querySelector<HTMLElement>(`[data-field="${CSS.escape(base)}"]`);
  if (!holder || holder.matches('input, textarea, select, button')) return holder;
  return holder.querySelector<HTMLElement>('input:not([tabindex="-1"]), textarea, select, button');
}

/** Moves focus to the control of `field`, scrolled to the middle (clear of the Queue bar). */
export function focusField(field: string): void {
  requestAnimationFrame(() => {
    const element = fieldElement(field);
    if (!element) return;
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: 'center' });
    // a key of the Other tab's JSON: the caret goes to the key
    if (field.startsWith('input.') && element instanceof HTMLTextAreaElement) {
      const key = `"${field.slice('input.'.length)}"`;
      const at = element.value.indexOf(key);
      if (at >= 0) element.setSelectionRange(at + 1, at + key.length - 1);
    }
  });
}

/**
 * What Queue (the button, or Ctrl/Cmd+Enter) does: with problems, shows every one of them and
 * focuses the first; with a price the service does not publish, asks first (not in demo mode,
 * nor for a task type the user said not to ask about: unknown-price.ts); else queues.
 */
export function attemptQueue(): void {
  const compose = useCompose.getState();
  if (compose.queueing || compose.unknownPrice !== null) return;
  const tab = compose.tab;
  const problems = formProblems(tab, compose, undefined, {
    lines: compose.batch.promptLines?.[tab] === true,
  });
  if (problems.length > 0) {
    compose.setAttempted(tab, true);
    const first = problems.find((p) => !p.pending);
    if (first) focusField(first.field);
    return;
  }
  const plan = planBatch(tab, compose, compose.batch);
  if (!plan.ok) {
    compose.setFormError(plan.message);
    focusField(plan.field);
    return;
  }
  if (plan.micros === null) {
    // no known price: asked first, unless in demo mode or the user said not to ask for this type
    const question = unknownPriceToAsk(plan.drafts, useStudio.getState().settings);
    if (question) compose.setUnknownPrice(question.message);
    else void queueCurrent(true);
    return;
  }
  void queueCurrent();
}

/**
 * Queues the current tab. The form keeps its values afterwards. `acceptUnknownPrice` is the
 * user's word to queue a task with no published price (asked for first).
 */
export async function queueCurrent(acceptUnknownPrice = false): Promise<void> {
  const compose = useCompose.getState();
  if (compose.queueing) return;
  const tab = compose.tab;
  compose.setFormError(null);
  const plan = planBatch(tab, compose, compose.batch);
  if (!plan.ok) {
    showFieldError(tab, plan.field, plan.message);
    return;
  }
  const batch = plan.drafts.length > 1;
  compose.setQueueing(true);
  try {
    let queued: string;
    if (batch) {
      const view = await invoke('tasks.queueBatch', {
        drafts: plan.drafts,
        ...(acceptUnknownPrice ? { acceptUnknownPrice: true } : {}),
      });
      useTasks.getState().upsert(view.tasks);
      const seeds = plan.seeds ? ` (seeds ${plan.seeds.first} to ${plan.seeds.last})` : '';
      queued = `Queued ${view.tasks.length} ${plan.entries === 1 ? 'variations' : 'tasks'} as one batch${seeds}`;
    } else {
      const single = plan.drafts[0]!;
      const task = await invoke(
        'tasks.queue',
        acceptUnknownPrice ? { ...single, acceptUnknownPrice: true } : single,
      );
      useTasks.getState().upsert([task]);
      // named as "Saved “…”" names it
      queued = `Queued “${task.title}”`;
    }
    // the title and the re-run marker belonged to the task just queued
    useCompose.getState().clearQueued(tab);
    const offline = useStudio.getState().status?.online === false;
    useUi
      .getState()
      .pushToast('success', offline ? `${queued} — it will be sent when the network returns` : queued, {
        label: 'View in Activity',
        run: goToActivity,
      });
  } catch (err) {
    const error =
      err instanceof StudioError
        ? err
        : new StudioError({ kind: 'internal', message: String(err), field: null });
    if (error.kind === 'price-unknown') {
      useCompose.getState().setUnknownPrice(asSentence(error.message));
    } else if (error.kind === 'budget') {
      const message = asSentence(error.message);
      if (batch) useCompose.getState().setFormError(`Nothing was queued. ${message}.`);
      else showFieldError(tab, error.field, message);
      toastQueueError(message, { label: 'Open Settings', run: () => useUi.getState().navigate('settings') });
    } else if (batch) {
      // "draft 3 of 12: …": which task of the batch, so it belongs to the form, not one field
      const message = `Nothing was queued. ${asSentence(error.message)}`;
      useCompose.getState().setFormError(message);
      toastQueueError(message);
    } else if (!showFieldError(tab, error.field, error.message)) {
      // beside its field the message says it all (and is announced); the others get a toast too
      toastQueueError(error.message);
    }
  } finally {
    useCompose.getState().setQueueing(false);
  }
}

/** Opens the composer filled in with the draft that recreates a task. */
export async function openRerun(taskId: string): Promise<void> {
  try {
    const draft = await invoke('tasks.draftOf', { id: taskId });
    const { tab, forms } = formsFromDraft(draft, taskId, useCompose.getState(), mediaPlace());
    fillWithUndo(tab, forms, 'The composer is filled in from this task; change anything, then Queue.');
    useUi.getState().navigate('compose');
    await Promise.all(TAB_SLOTS[tab].map((field) => checkSlot(field)));
  } catch (err) {
    toastError(err);
  }
}

/** Opens the form of `action` with output `index` of a saved task as its input. */
export function openFromResult(action: ResultAction, task: LoadedTask, index: number): void {
  const output = task.outputs.find((o) => o.index === index && o.state === 'saved');
  if (!output) {
    toastError(`“${task.title}” has no saved output ${index + 1} to use`);
    return;
  }
  const { tab, forms } = formsForResult(action, task, output, useCompose.getState(), mediaPlace());
  const message = `${actionLabel(action)}: the composer is filled in with “${task.title}”; Queue when ready.`;
  fillWithUndo(tab, forms, message);
  useUi.getState().navigate('compose');
}

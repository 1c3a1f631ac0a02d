/**
 * What the composer does with the bridge: checking a media slot the moment it is filled,
 * queueing the current tab, and opening a re-run filled in from `tasks.draftOf`.
 */
import { LIMITS, StudioError } from '../../../../shared/index.ts';
import { invoke, pathForFile } from '../../bridge.ts';
import { useCompose } from '../../stores/compose-store.ts';
import { useStudio } from '../../stores/studio-store.ts';
import { useTasks } from '../../stores/tasks-store.ts';
import { toastError, useUi } from '../../stores/ui-store.ts';
import {
  buildDraft,
  type ComposeTab,
  checkInfo,
  EMPTY_SLOT,
  formsFromDraft,
  SLOT_RULES,
  type SlotField,
  TAB_SLOTS,
  urlProblem,
} from './compose-model.ts';

/** Asks main to check the slot's current value; a stale answer (the slot changed since) is dropped. */
export async function checkSlot(field: SlotField): Promise<void> {
  const rule = SLOT_RULES[field];
  const value = useCompose.getState().slots[field].value;
  if (!value) return;
  const stillCurrent = () => useCompose.getState().slots[field].value === value;
  try {
    const check = await invoke('media.check', {
      field,
      value,
      kind: rule.kind,
      ...(rule.faceSwap ? { faceSwap: true } : {}),
    });
    if (!stillCurrent()) return;
    const slot = useCompose.getState().slots[field];
    useCompose.getState().setSlot(field, {
      ...slot,
      status: check.ok ? 'ok' : 'bad',
      message: check.ok ? null : (slotReason(field, check.message) ?? `${rule.label} cannot be used`),
      info: check.ok ? checkInfo(check) : null,
    });
  } catch (err) {
    if (!stillCurrent()) return;
    const slot = useCompose.getState().slots[field];
    useCompose
      .getState()
      .setSlot(field, { ...slot, status: 'bad', message: err instanceof Error ? err.message : String(err) });
  }
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsDataURL(file);
  });
}

/** Fills a slot from a dropped or picked file: its local path (or, without one, its bytes). */
export async function putFile(field: SlotField, file: File): Promise<void> {
  const rule = SLOT_RULES[field];
  const path = pathForFile(file);
  const preview = rule.kind === 'image' ? URL.createObjectURL(file) : null;
  const base = { ...EMPTY_SLOT, label: file.name, previewUrl: preview, status: 'checking' as const };
  if (path) {
    useCompose.getState().setSlot(field, { ...base, value: path, origin: 'file' });
    await checkSlot(field);
    return;
  }
  const cap = rule.kind === 'image' ? LIMITS.imageMaxBytes : Math.min(LIMITS.audioMaxBytes, 20 * 1024 * 1024);
  if (file.size > cap) {
    useCompose.getState().setSlot(field, {
      ...base,
      value: '',
      origin: 'data',
      status: 'bad',
      message: `${file.name} is ${(file.size / 1048576).toFixed(1)} MB; without a file path the limit is ${Math.round(cap / 1048576)} MB`,
    });
    return;
  }
  const marker = `reading:${file.name}:${Date.now()}`;
  useCompose.getState().setSlot(field, { ...base, value: marker, origin: 'data' });
  try {
    const dataUrl = await readAsDataUrl(file);
    if (useCompose.getState().slots[field].value !== marker) return;
    useCompose.getState().setSlot(field, { ...useCompose.getState().slots[field], value: dataUrl });
    await checkSlot(field);
  } catch (err) {
    useCompose
      .getState()
      .setSlot(field, { ...base, status: 'bad', message: `Could not read ${file.name}: ${String(err)}` });
  }
}

/** Fills a slot from a typed or pasted URL. */
export async function putUrl(field: SlotField, url: string): Promise<void> {
  const rule = SLOT_RULES[field];
  const value = url.trim();
  if (value === '') {
    clearSlot(field);
    return;
  }
  const problem = urlProblem(value, rule);
  const slot = {
    ...EMPTY_SLOT,
    value,
    label: value,
    origin: 'url' as const,
    previewUrl: rule.kind === 'image' ? value : null,
    status: problem ? ('bad' as const) : ('checking' as const),
    message: problem,
  };
  useCompose.getState().setSlot(field, slot);
  if (!problem) await checkSlot(field);
}

export function clearSlot(field: SlotField): void {
  useCompose.getState().setSlot(field, EMPTY_SLOT);
}

/** Fields each tab shows, to tell whether an error from main can sit next to its field. */
const SHOWN_FIELDS: Record<ComposeTab, readonly string[]> = {
  song: ['style_prompt', 'negative_prompt', 'lyrics', 'duration', 'style_audio'],
  faceSwap: ['target_image', 'swap_image'],
  imageEdit: ['image1', 'image2', 'image3', 'prompt', 'negative_prompt', 'seed', 'steps', 'flow_shift'],
  other: ['model', 'task_type', 'input'],
};
const COMMON_FIELDS = ['title', 'webhook_config.endpoint', 'webhook_config.secret'];

/**
 * A refused slot's reason as a sentence: the slot already names its field, so a leading wire name
 * ("swap_image: image is …") is dropped.
 */
function slotReason(field: string, message: string | undefined | null): string | null {
  return message ? asSentence(message.replace(`${field}: `, '')) : null;
}

/** The budget refusal starts in lower case ("this task ($0.10) would…"); it is shown as a sentence. */
function asSentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

function showFieldError(tab: ComposeTab, field: string | null, message: string): boolean {
  const compose = useCompose.getState();
  if (field && (SHOWN_FIELDS[tab].includes(field) || COMMON_FIELDS.includes(field))) {
    compose.setFieldError(tab, field, message);
    return true;
  }
  compose.setFormError(message);
  return false;
}

function goToActivity(): void {
  useUi.getState().navigate('activity');
}

/**
 * Queues the current tab. The form keeps its values afterwards. `acceptUnknownPrice` is the
 * user's word to queue a task with no published price under a budget (asked for first).
 */
export async function queueCurrent(acceptUnknownPrice = false): Promise<void> {
  const compose = useCompose.getState();
  if (compose.queueing) return;
  const tab = compose.tab;
  compose.setFormError(null);
  const built = buildDraft(tab, compose);
  if (!built.ok) {
    showFieldError(tab, built.field, built.message);
    return;
  }
  compose.setQueueing(true);
  try {
    const draft = acceptUnknownPrice ? { ...built.draft, acceptUnknownPrice: true } : built.draft;
    const task = await invoke('tasks.queue', draft);
    useTasks.getState().upsert([task]);
    // the title and the re-run marker belonged to the task just queued
    useCompose.getState().clearQueued(tab);
    const offline = useStudio.getState().status?.online === false;
    useUi
      .getState()
      .pushToast('success', offline ? 'Queued — it will be sent when the network returns' : 'Queued', {
        label: 'View in Activity',
        run: goToActivity,
      });
  } catch (err) {
    const error =
      err instanceof StudioError
        ? err
        : new StudioError({ kind: 'internal', message: String(err), field: null });
    const field = error.field ? error.field.replace(/^input\./, '') : null;
    if (error.kind === 'price-unknown') {
      useCompose.getState().setUnknownPrice(asSentence(error.message));
    } else if (error.kind === 'budget') {
      const shown = new StudioError({
        kind: error.kind,
        message: asSentence(error.message),
        field: error.field,
      });
      showFieldError(tab, field, shown.message);
      toastError(shown, { label: 'Open Settings', run: () => useUi.getState().navigate('settings') });
    } else {
      showFieldError(tab, field, error.message);
      toastError(error);
    }
  } finally {
    useCompose.getState().setQueueing(false);
  }
}

/** Opens the composer filled in with the draft that recreates a task. */
export async function openRerun(taskId: string): Promise<void> {
  try {
    const draft = await invoke('tasks.draftOf', { id: taskId });
    const info = useStudio.getState().appInfo;
    const settings = useStudio.getState().settings;
    const place = {
      libraryDir: settings?.libraryDir || info?.libraryDir || '',
      mediaBaseUrl: info?.mediaBaseUrl ?? '',
    };
    const { tab, forms } = formsFromDraft(draft, taskId, useCompose.getState(), place);
    useCompose.getState().fill(tab, forms);
    useUi.getState().navigate('compose');
    useUi
      .getState()
      .pushToast('info', 'The composer is filled in from this task; change anything, then Queue.');
    await Promise.all(TAB_SLOTS[tab].map((field) => checkSlot(field)));
  } catch (err) {
    toastError(err);
  }
}

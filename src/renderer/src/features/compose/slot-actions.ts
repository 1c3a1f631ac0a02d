/**
 * Filling the composer's media slots: from a dropped or picked file (its local path, or its
 * bytes when it has none), several files dropped at once (the following empty slots of the tab
 * take the rest), a pasted picture or URL, or a typed URL; each is checked by main the moment
 * it is in. Removing a slot's input.
 *
 * A picture gets its preview only once main's check passed (issue 17, item 3): the check reads
 * its size from the header, so a file claiming 99,000,000 x 1 px is refused with its size and
 * never handed to the window's decoder (no object URL is even made of it).
 */
import { inputLimitsOf } from '../../../../shared/index.ts';
import { invoke, pathForFile } from '../../bridge.ts';
import { useCompose } from '../../state/compose-state.ts';
import { useUi } from '../../state/ui-state.ts';
import type { MultiSlot } from './compose-batch.ts';
import type { ComposeTab } from './compose-model.ts';
import {
  checkInfo,
  EMPTY_SLOT,
  previewsAsPicture,
  SLOT_RULES,
  type SlotField,
  type SlotState,
  TAB_SLOTS,
  urlProblem,
} from './compose-slots.ts';

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

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsDataURL(file);
  });
}

/** Gives the slot a preview of `file` when it still holds `value` and main's check passed it. */
function previewWhenPassed(field: SlotField, value: string, file: File): void {
  if (!previewsAsPicture(SLOT_RULES[field].kind)) return;
  const slot = useCompose.getState().slots[field];
  if (slot.value !== value || slot.status !== 'ok') return;
  useCompose.getState().setSlot(field, { ...slot, previewUrl: URL.createObjectURL(file) });
}

/** Fills a slot from a dropped or picked file: its local path (or, without one, its bytes). */
export async function putFile(field: SlotField, file: File): Promise<void> {
  const rule = SLOT_RULES[field];
  const path = pathForFile(file);
  const base = { ...EMPTY_SLOT, label: file.name, status: 'checking' as const };
  if (path) {
    useCompose.getState().setSlot(field, { ...base, value: path, origin: 'file' });
    await checkSlot(field);
    previewWhenPassed(field, path, file);
    return;
  }
  // without a path the bytes travel as a data URI: the kind's limit, and never above 20 MB
  const cap = Math.min(inputLimitsOf(rule.kind).maxBytes, 20 * 1024 * 1024);
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
    previewWhenPassed(field, dataUrl, file);
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
    previewUrl: previewsAsPicture(rule.kind) ? value : null,
    status: problem ? ('bad' as const) : ('checking' as const),
    message: problem,
  };
  useCompose.getState().setSlot(field, slot);
  if (!problem) await checkSlot(field);
}

export function clearSlot(field: SlotField): void {
  useCompose.getState().setSlot(field, EMPTY_SLOT);
}

/**
 * A refused slot's reason as a sentence: the slot already names its field, so a leading wire name
 * ("swap_image: image is …") is dropped.
 */
function slotReason(field: string, message: string | undefined | null): string | null {
  if (!message) return null;
  const text = message.replace(`${field}: `, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The tab a slot belongs to. */
function tabOfSlot(field: SlotField): ComposeTab {
  const tabs = Object.keys(TAB_SLOTS) as ComposeTab[];
  return tabs.find((tab) => TAB_SLOTS[tab].includes(field)) ?? 'song';
}

function names(files: readonly File[]): string {
  const quoted = files.map((f) => `"${f.name}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/**
 * Fills `field` with the first file and the tab's following empty slots with the others, in
 * order (two pictures dropped on a face swap's target fill the target and the face). Returns
 * why any file was left out, or null when every file found a slot.
 */
export function putFiles(field: SlotField, files: readonly File[]): string | null {
  const [first, ...rest] = files;
  if (!first) return null;
  void putFile(field, first);
  const tab = tabOfSlot(field);
  // the From a result tab shows one slot at a time: no other slot follows it
  const order = tab === 'fromResult' ? [field] : TAB_SLOTS[tab];
  const following = order.slice(order.indexOf(field) + 1);
  const slots = useCompose.getState().slots;
  const free = following.filter((f) => slots[f].status === 'empty');
  rest.slice(0, free.length).forEach((file, index) => {
    void putFile(free[index]!, file);
  });
  const unused = rest.slice(free.length);
  if (unused.length === 0) return null;
  const rule = SLOT_RULES[field];
  const verb = unused.length === 1 ? 'was' : 'were';
  if (following.length === 0) {
    return `${names(unused)} ${verb} not used: ${rule.label} takes one file. Drop ${unused.length === 1 ? 'it' : 'them'} on another slot.`;
  }
  const taken = following.filter((f) => slots[f].status !== 'empty').map((f) => SLOT_RULES[f].label);
  return `${names(unused)} ${verb} not used: ${taken.join(' and ')} already ${taken.length === 1 ? 'holds' : 'hold'} an input. Drop ${unused.length === 1 ? 'it' : 'them'} there to replace it.`;
}

/** Changes the extra picture of `field` named `key` (unique), when it is still listed. */
function updateExtra(field: MultiSlot, key: string, patch: Partial<SlotState>): void {
  const pictures = useCompose.getState().batch.extra[field];
  if (!pictures.some((t) => t.key === key)) return;
  useCompose.getState().setExtra(
    field,
    pictures.map((t) => (t.key === key ? { ...t, ...patch } : t)),
  );
}

/** Checks one extra picture of `field` with main, as its slot is checked; its preview once it passed. */
async function checkExtra(field: MultiSlot, key: string, value: string, file: File): Promise<void> {
  const rule = SLOT_RULES[field];
  updateExtra(field, key, { value });
  try {
    const check = await invoke('media.check', {
      field,
      value,
      kind: rule.kind,
      ...(rule.faceSwap ? { faceSwap: true } : {}),
    });
    const listed = useCompose.getState().batch.extra[field].some((t) => t.key === key);
    updateExtra(field, key, {
      status: check.ok ? 'ok' : 'bad',
      message: check.ok ? null : (slotReason(field, check.message) ?? `${rule.label} cannot be used`),
      info: check.ok ? checkInfo(check) : null,
      ...(check.ok && listed ? { previewUrl: URL.createObjectURL(file) } : {}),
    });
  } catch (err) {
    updateExtra(field, key, { status: 'bad', message: err instanceof Error ? err.message : String(err) });
  }
}

let extraCount = 0;

/**
 * Many pictures dropped on a slot that takes a batch (the face swap's target, the From a result
 * tab's picture): the first fills the slot, the others become the batch's extra pictures (one
 * task each), each checked.
 */
export function putMany(field: MultiSlot, files: readonly File[]): void {
  const [first, ...rest] = files;
  if (!first) return;
  void putFile(field, first);
  const pictures = rest.map(
    (file): SlotState => ({
      ...EMPTY_SLOT,
      label: file.name,
      origin: 'file',
      status: 'checking',
      key: `picture-${++extraCount}`,
    }),
  );
  useCompose.getState().setExtra(field, pictures);
  rest.forEach((file, i) => {
    const key = pictures[i]!.key!;
    const path = pathForFile(file);
    if (path) {
      void checkExtra(field, key, path, file);
      return;
    }
    readAsDataUrl(file).then(
      (dataUrl) => checkExtra(field, key, dataUrl, file),
      (err: unknown) =>
        updateExtra(field, key, { status: 'bad', message: `Could not read ${file.name}: ${String(err)}` }),
    );
  });
}

/** Removes picture `index` of a slot's batch (0: the slot's own; the next picture takes it). */
export function removePicture(field: MultiSlot, index: number): void {
  const compose = useCompose.getState();
  const extras = compose.batch.extra[field];
  if (index === 0) {
    const [next, ...others] = extras;
    compose.setSlot(field, next ?? EMPTY_SLOT);
    compose.setExtra(field, others);
    return;
  }
  compose.setExtra(
    field,
    extras.filter((_, i) => i !== index - 1),
  );
}

/** Fills slots from a drop or a paste, saying in a toast why a file was left out. */
export function putFilesSaying(field: SlotField, files: readonly File[]): void {
  // more than two pictures on the face swap's target (two fill target and face), or several on
  // the From a result tab's picture: a batch, one task per picture
  if ((field === 'target_image' && files.length > 2) || (field === 'source_image' && files.length > 1)) {
    putMany(field, files);
    return;
  }
  const note = putFiles(field, files);
  if (note) useUi.getState().pushToast('info', note);
}

/**
 * A paste into a slot (the focused slot and Ctrl/Cmd+V): its files, or a URL it holds. Returns
 * false when the paste holds neither, so the page pastes as usual (text into the URL box).
 */
export function pasteIntoSlot(field: SlotField, data: DataTransfer): boolean {
  const files = [...data.files];
  if (files.length > 0) {
    putFilesSaying(field, files);
    return true;
  }
  const text = data.getData('text/uri-list') || data.getData('text/plain');
  const url = text.trim().split('\n')[0]?.trim() ?? '';
  if (/^https?:\/\//i.test(url)) {
    void putUrl(field, url);
    return true;
  }
  return false;
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Toast, useUi, withToast } from '../../src/renderer/src/state/ui-state.ts';

const toast = (id: number, message: string, tone: Toast['tone'] = 'success'): Toast => ({
  id,
  tone,
  message,
  action: null,
  count: 1,
});

describe('withToast', () => {
  it('folds an identical toast into the newest one, counting it, under the new id', () => {
    const once = withToast([], toast(1, 'Queued'));
    const twice = withToast(once, toast(2, 'Queued'));
    const thrice = withToast(twice, toast(3, 'Queued'));
    expect(thrice).toEqual([{ ...toast(3, 'Queued'), count: 3 }]);
  });

  it('keeps toasts that differ in message, tone or action apart', () => {
    let list = withToast([], toast(1, 'Queued'));
    list = withToast(list, toast(2, 'Queued', 'info'));
    list = withToast(list, { ...toast(3, 'Queued', 'info'), action: { label: 'Open Settings', run() {} } });
    list = withToast(list, toast(4, 'Saved'));
    expect(list.map((t) => [t.id, t.count])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 1],
    ]);
  });

  it('folds a toast said again while an earlier one shows into that one, as the newest; keeps four at most', () => {
    let list: Toast[] = [];
    // was ['Saved×1', 'Queued×1', 'A×1', 'B×2']: the same failure dropped again stacked (review of issue 22, item 10)
    for (const [id, message] of ['Queued', 'Saved', 'Queued', 'A', 'B', 'B'].entries())
      list = withToast(list, toast(id, message));
    expect(list.map((t) => `${t.message}×${t.count}`)).toEqual(['Saved×1', 'Queued×2', 'A×1', 'B×2']);
    for (const [id, message] of ['C', 'D', 'E', 'Saved'].entries())
      list = withToast(list, toast(10 + id, message));
    expect(list.map((t) => `${t.message}×${t.count}`)).toEqual(['C×1', 'D×1', 'E×1', 'Saved×1']);
  });
});

describe('pushToast', () => {
  afterEach(() => {
    vi.useRealTimers();
    useUi.setState({ toasts: [] });
  });

  it('shows "Queued" ×3 once and lets it go 6 s after the last one', () => {
    vi.useFakeTimers();
    const { pushToast } = useUi.getState();
    pushToast('success', 'Queued');
    vi.advanceTimersByTime(4000);
    pushToast('success', 'Queued');
    const last = pushToast('success', 'Queued');
    expect(useUi.getState().toasts).toEqual([
      { id: last, tone: 'success', message: 'Queued', action: null, count: 3 },
    ]);
    vi.advanceTimersByTime(4000);
    expect(useUi.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(2000);
    expect(useUi.getState().toasts).toEqual([]);
  });
});

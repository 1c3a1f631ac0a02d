/**
 * Keeping going from a saved result in the UI: opening its detail in the library, using one of the
 * detail's actions, queueing the form it fills, and checking that the stored task was made from
 * the result (its lineage, and the `$output` resolved to the result's URL or file).
 */
import type { Page } from '@playwright/test';
import { expect } from 'vitest';
import type { Task } from '../../../src/shared/index.ts';
import { waitUntil } from '../../support/wait-until.ts';
import type { BridgeCall } from './studio-bridge.ts';
import type { StudioPage } from './studio-rig.ts';
import { card, openView, queueButton } from './studio-ui.ts';

/** What the lineage of a task says (read without assuming the Task type has it yet). */
export function lineageOf(task: Task): { parentId: unknown; parentOutput: unknown } {
  const fields = task as unknown as Record<string, unknown>;
  return { parentId: fields.parentId, parentOutput: fields.parentOutput };
}

/** The stored input `field` of `task` was resolved from output 0 of `source`: its URL, or its file. */
export function expectResolvedFrom(task: Task, field: string, source: Task): void {
  const sent = task.request.input[field];
  expect(typeof sent, `${field} in the stored request is resolved to text`).toBe('string');
  const output = source.outputs[0]!;
  const input = task.inputs.find((i) => i.field === field);
  expect(input, `an input record of ${field}`).toBeDefined();
  if (input!.source === 'url') expect(input!.value).toBe(output.url);
  else {
    expect(input!.source).toBe('file');
    expect(input!.sha256).toBe(output.sha256);
  }
}

/** Opens the library detail of `task` (by its card's Open button) and returns the detail panel. */
export async function openResultDetail(page: Page, task: Task) {
  await openView(page, 'library');
  const detail = page.locator(`[data-testid="detail-panel"][data-task-id="${task.id}"]`);
  // its detail still open (it covers the card in a small window): that one; another task's is
  // closed first, as a person would
  if ((await detail.count()) > 0) return detail;
  const shown = page.locator('[data-testid="detail-panel"][data-task-id]');
  if ((await shown.count()) > 0) {
    await shown.getByRole('button', { name: 'Close details' }).click();
    await shown.waitFor({ state: 'detached' });
  }
  await card(page, task.id)
    .getByRole('button', { name: `Open ${task.title}` })
    .click();
  await detail.waitFor();
  return detail;
}

/** Uses an action of the detail on `task` and waits for the composer. */
export async function chooseAction(page: Page, task: Task, action: string): Promise<void> {
  const detail = await openResultDetail(page, task);
  await detail.getByTestId('result-actions').getByRole('button', { name: action, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
}

/** Queue (and "Queue anyway" when the price is not published): the answer of its tasks.queue call. */
export async function queueFromForm(view: StudioPage): Promise<BridgeCall> {
  const { page } = view;
  const queueCalls = () => view.bridge.calls.filter((c) => c.name === 'tasks.queue');
  const before = queueCalls().length;
  await queueButton(page).click();
  const confirm = page.getByTestId('confirm-dialog');
  await waitUntil(
    async () => queueCalls().length > before || (await confirm.isVisible()),
    'the queue call or its price question',
  );
  if (queueCalls().length === before) await confirm.getByRole('button', { name: 'Queue anyway' }).click();
  const call = await waitUntil(() => queueCalls()[before], 'the tasks.queue call');
  expect(call.ok, `tasks.queue answered: ${JSON.stringify(call.error)}`).toBe(true);
  return call;
}

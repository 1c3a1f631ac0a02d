/**
 * The library's Type filter and a failed task's detail, in the built app: "Songs" shows a song
 * extend beside the song, "Face swaps" a multi-face swap beside the one-face swap, "Other" neither;
 * a failed task's detail says its error as a sentence and "No result: the task failed."
 */
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import type { StudioPage } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, openLibraryWith } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const REFUSAL = 'your plan at the service does not include this model';

/** [id, title, model, task type, input], oldest first; the last one failed. */
const PLANTED: [string, string, string, string, Record<string, unknown>][] = [
  ['song', 'Harbour lights', 'ace-step', 'txt2audio', { style_prompt: 'sea shanty', duration: 30 }],
  ['extend', 'Harbour lights (extended)', 'ace-step', 'extend', { audio: 'https://example.test/a.mp3' }],
  ['swap', 'One face', 'image-toolkit', 'face-swap', { swap_image: 'x', target_image: 'y' }],
  ['multi', 'Two faces', 'image-toolkit', 'multi-face-swap', { swap_image: 'x', target_image: 'y' }],
  ['cutout', 'Cut out', 'image-toolkit', 'background-remove', { image: 'x' }],
  ['failed', 'Refused song', 'ace-step', 'txt2audio', { style_prompt: 'refused', duration: 30 }],
];

function plant(libraryDir: string): void {
  const store = LibraryStore.open(libraryDir);
  try {
    PLANTED.forEach(([id, title, modelName, taskType, input], i) => {
      const model = `service/${modelName}`;
      store.insertTask({
        id,
        model,
        taskType,
        title,
        request: { model, task_type: taskType, input },
        estimateMicros: 10_000,
        createdAt: new Date(Date.now() - (PLANTED.length - i) * 60_000).toISOString(),
      });
      store.transition(id, 'failed', {
        patch: { error: { kind: 'bad-request', message: REFUSAL, code: 400 } },
      });
    });
  } finally {
    store.close();
  }
}

async function showType(page: Page, label: string, expected: string[]): Promise<void> {
  const bar = page.getByRole('search', { name: 'Filter the library' });
  await bar.getByLabel('Type').selectOption({ label });
  const ids = async () => {
    const cards = await page.getByTestId('task-card').all();
    const found = await Promise.all(cards.map((c) => c.getAttribute('data-task-id')));
    return found.map((id) => id ?? '').sort();
  };
  await expect.poll(ids, { timeout: 10_000 }).toEqual([...expected].sort());
}

describe.skipIf(!browserAvailable())("the Type filter and a failed task's detail", () => {
  let view: StudioPage;

  openStudio({ service: 'service', prepareLibrary: plant }, (opened) => {
    ({ view } = opened);
  });

  it('Songs lists the extend, Face swaps the multi-face swap, Other neither', async () => {
    const { page } = view;
    await openLibraryWith(page, PLANTED.length);
    await showType(page, 'Songs', ['song', 'extend', 'failed']);
    await showType(page, 'Face swaps', ['swap', 'multi']);
    await showType(page, 'Other', ['cutout']);
    await showType(
      page,
      'All types',
      PLANTED.map(([id]) => id),
    );
  });

  it("a failed task's detail says its error as a sentence and that there is no result", async () => {
    const { page } = view;
    await card(page, 'failed')
      .getByRole('button', { name: /^Open Refused song/ })
      .click();
    const detail = page.locator('[data-testid="detail-panel"][data-task-id="failed"]');
    await detail.waitFor();
    await expect
      .poll(() => detail.getByRole('note').first().textContent())
      .toBe('Your plan at the service does not include this model');
    expect(await detail.locator('.detail-media-empty').textContent()).toBe('No result: the task failed.');
    expect(await detail.getByText('No saved result yet.').count()).toBe(0);
  });
});

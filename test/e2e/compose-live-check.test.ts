/**
 * The composer checks its form as it is filled, from the catalog's rules, in plain words:
 * - an empty song or image edit: Queue is unavailable with the reason, no error shows on an
 *   untouched field until Queue is tried; then every problem shows beside its field and focus
 *   moves to the first;
 * - an empty media slot (Face swap, From a result) says its catalog field's one sentence, the
 *   engine's and the CLI's (backend-calls asserts the three alike), its drop hint a line apart;
 * - 6,000 characters of lyrics and a malformed marker are both shown at once, as you type;
 * - lyrics pasted from Suno ([Verse 1], [Outro]) queue with the service's markers, said under
 *   them; a tag the service does not know is a warning, never a blocker;
 * - a refusal from main (a budget) shows as a toast that goes once the form is edited;
 * - Queue keeps the focus through its call (it is never natively disabled).
 * Behind the UI: nothing was sent to `tasks.queue` while the form had problems.
 */
import { describe, expect, it } from 'vitest';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { openComposeTab, queue, queueButton, slot } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

/** The `data-field` of the element that has focus, or its accessible text. */
function focusedField(view: StudioPage): Promise<string | null> {
  return view.page.evaluate(() => {
    const doc = (
      globalThis as unknown as {
        document: {
          activeElement: { getAttribute(n: string): string | null; textContent: string | null } | null;
        };
      }
    ).document;
    const el = doc.activeElement;
    return el ? (el.getAttribute('data-field') ?? el.textContent) : null;
  });
}

describe.skipIf(!browserAvailable())('the composer checks the form live, in plain words', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service' }, (opened) => {
    ({ rig, view } = opened);
  });

  const queueCalls = () => view.bridge.calls.filter((c) => c.name === 'tasks.queue').length;

  it('an empty song: Queue unavailable with the reason; errors only after a Queue attempt, focus on the first', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Song');
    const reason = page.getByTestId('queue-reason');
    expect(await reason.textContent()).toBe('Not ready: Write a style prompt or add a reference audio');
    expect(await reason.textContent()).not.toContain('Ready to queue');
    expect(await queueButton(page).getAttribute('aria-disabled')).toBe('true');
    // nothing shouts at an untouched empty form
    expect(await panel.getByTestId('field-error').count()).toBe(0);

    await queueButton(page).click({ force: true });
    const error = panel.getByTestId('field-error');
    await error.first().waitFor();
    expect(await error.allTextContents()).toEqual(['Write a style prompt or add a reference audio']);
    expect(await focusedField(view)).toBe('style_prompt');
    const prompt = panel.getByLabel('Style prompt', { exact: true });
    expect(await prompt.getAttribute('aria-invalid')).toBe('true');
    expect(queueCalls()).toBe(0);

    // fixed as it is typed: the error goes and Queue is ready
    await prompt.fill('warm bossa nova, nylon guitar');
    await error.first().waitFor({ state: 'detached' });
    expect(await queueButton(page).getAttribute('aria-disabled')).toBeNull();
    expect(await reason.textContent()).toContain('Ready to queue');
  });

  it('6,000 characters of lyrics with a malformed marker: both problems show at once, as typed', async () => {
    const { page } = view;
    const panel = page.getByRole('tabpanel');
    const lyrics = panel.getByLabel('Lyrics', { exact: false }).first();
    await lyrics.fill(`[verse]\n${'la '.repeat(1990)}\n[chorus\n`.padEnd(6000, 'a'));
    expect((await lyrics.inputValue()).length).toBe(6000);
    const error = panel.getByTestId('field-error');
    await error.first().waitFor();
    expect(await error.allTextContents()).toEqual(['Lyrics are 6,000 characters; the limit is 5,000']);
    expect(await panel.getByTestId('lyrics-problem').count()).toBe(1);
    expect(await page.getByTestId('queue-reason').textContent()).toBe(
      'Not ready: Lyrics are 6,000 characters; the limit is 5,000 (and 1 more to fix)',
    );
    expect(await queueButton(page).getAttribute('aria-disabled')).toBe('true');

    // Ctrl+Enter tries to queue: the first problem's field gets focus, nothing is sent
    await panel.getByLabel('Style prompt', { exact: true }).focus();
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => focusedField(view)).toBe('lyrics');
    expect(queueCalls()).toBe(0);

    await lyrics.fill('[verse]\nshort and sweet\n[chorus\n');
    await error.first().waitFor({ state: 'detached' });
    expect(await page.getByTestId('queue-reason').textContent()).toBe(
      'Not ready: Fix the lyrics marker on line 3',
    );
    await lyrics.fill('[verse]\nshort and sweet\n[chorus]\nla la\n');
    expect(await page.getByTestId('queue-reason').textContent()).toContain('Ready to queue');
  });

  it('an empty image edit: every problem beside its field in plain words, focus on the first slot', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Image edit');
    expect(await page.getByTestId('queue-reason').textContent()).toBe(
      'Not ready: Add a picture to edit (and 1 more to fix)',
    );
    expect(await slot(page, 'image1').getByTestId('slot-reason').textContent()).toBe('');
    await page.keyboard.press('Control+Enter');
    await expect
      .poll(() => slot(page, 'image1').getByTestId('slot-reason').textContent())
      .toBe('Add a picture to edit');
    expect(await panel.getByTestId('field-error').allTextContents()).toEqual([
      'Write a prompt that describes the edit',
    ]);
    expect(await focusedField(view)).toBe('Browse for image1');
    // no wire wording anywhere
    const shown = [
      ...(await panel.getByTestId('field-error').allTextContents()),
      ...(await panel.getByTestId('slot-reason').allTextContents()),
      (await page.getByTestId('queue-reason').textContent()) ?? '',
    ].join('\n');
    expect(shown).not.toMatch(/image1: |is required|input\./);
    expect(queueCalls()).toBe(0);
  });

  it("an empty media slot says its catalog field's one sentence (the engine's and the CLI's); how to fill it is the slot's own hint", async () => {
    const { page } = view;
    await openComposeTab(page, 'Face swap');
    expect(await page.getByTestId('queue-reason').textContent()).toBe(
      'Not ready: Add a target image (and 1 more to fix)',
    );
    await page.keyboard.press('Control+Enter');
    const target = slot(page, 'target_image');
    await expect.poll(() => target.getByTestId('slot-reason').textContent()).toBe('Add a target image');
    expect(await slot(page, 'swap_image').getByTestId('slot-reason').textContent()).toBe('Add a face image');
    // the how is a line of its own in the slot, not part of the rule's sentence
    expect(await target.locator('.drop-hint').textContent()).toMatch(/^Drop an image here, or paste one/);
    if (process.env.SLOT_SHOTS_DIR) {
      await page.setViewportSize({ width: 800, height: 600 });
      await target.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.SLOT_SHOTS_DIR}/face-swap-missing-800x600.png` });
    }
    // From a result opens on Extend: its slot says the sentence the engine and `create extend` say
    await openComposeTab(page, 'From a result');
    await page.keyboard.press('Control+Enter');
    await expect
      .poll(() => slot(page, 'source_audio').getByTestId('slot-reason').textContent())
      .toBe('Add the song to extend');
    expect(queueCalls()).toBe(0);
  });

  it('the budget is part of the live check: a task that would pass it says so before Queue', async () => {
    const { page } = view;
    await openComposeTab(page, 'Song');
    const reason = page.getByTestId('queue-reason');
    await expect.poll(() => reason.textContent()).toBe('Ready to queue (Ctrl+Enter).');
    await rig.call('settings.update', { budgetMicros: 1_000 });
    // nothing pressed: the reason says what the budget would refuse, with main's figures
    await expect
      .poll(() => reason.textContent())
      .toMatch(
        /^Over your budget: this task \(\$[\d.]+\) would take the total to \$[\d.]+ of \$0\.001; raise the budget in Settings to queue it$/,
      );
    expect(await queueButton(page).getAttribute('aria-disabled')).toBe('true');
    expect(await reason.getAttribute('class')).toContain('queue-why-bad');
    // a budget that holds it: ready again
    await rig.call('settings.update', { budgetMicros: 1_000_000_000 });
    await expect.poll(() => reason.textContent()).toBe('Ready to queue (Ctrl+Enter).');
    expect(queueCalls()).toBe(0);
    await rig.call('settings.update', { budgetMicros: null });
  });

  it('a refusal from main (over the budget) is a toast that goes once the form is edited', async () => {
    const { page } = view;
    await rig.call('settings.update', { budgetMicros: 1_000 });
    await openComposeTab(page, 'Song');
    // marked unavailable by the live budget check, and pressed anyway
    await queueButton(page).click({ force: true });
    const toast = page.getByTestId('toast').filter({ hasText: 'over your budget' });
    await toast.waitFor();
    expect(await page.getByTestId('queue-reason').textContent()).toContain('over your budget');
    await page.getByRole('tabpanel').getByLabel('Style prompt', { exact: true }).press('End');
    await page.keyboard.type(', brushes');
    await toast.waitFor({ state: 'detached', timeout: 2_000 });
    // main's refusal is gone; the live check still says the new price is over the budget
    expect(await page.getByTestId('queue-reason').textContent()).toMatch(/^Over your budget: this task /);
    expect(await rig.tasks()).toEqual([]);
    await rig.call('settings.update', { budgetMicros: null });
  });

  it('Queue keeps the focus while its call runs and after it', async () => {
    const { page } = view;
    const queue = queueButton(page);
    await queue.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => view.bridge.queuedTasks().length).toBe(1);
    await page.getByRole('button', { name: 'Queueing…' }).waitFor({ state: 'detached' });
    expect(await focusedField(view)).toBe('Queue');
  });

  it('lyrics pasted from Suno: the common tags are sent as the service markers and said so; an unknown tag only warns', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Song');
    await panel.getByLabel('Style prompt', { exact: true }).fill('synth pop, bright');
    const pasted =
      '[Intro]\n[Verse 1]\nCity lights\n[Pre-Chorus]\nHold on\n[Chorus]\nLa la\n[Male Vocal]\nHey\n[Outro]';
    await panel.getByLabel('Lyrics', { exact: false }).first().fill(pasted);
    await expect
      .poll(() => panel.getByTestId('lyrics-mapped').textContent())
      .toBe(
        "Sent as the service's markers: [Intro] → [inst], [Verse 1] → [verse], [Pre-Chorus] → [verse], [Chorus] → [chorus], [Outro] → [inst]",
      );
    expect(await panel.getByTestId('lyrics-warning').allTextContents()).toEqual([
      'Line 8: [Male Vocal] is not a marker the service knows ([verse], [chorus], [bridge], [inst]); it is sent as written',
    ]);
    expect(await panel.getByTestId('lyrics-problems').count()).toBe(0);
    expect(await page.getByTestId('queue-reason').textContent()).toContain('Ready to queue');
    if (process.env.LYRICS_SHOTS_DIR) {
      for (const theme of ['light', 'dark'] as const) {
        await rig.call('settings.update', { theme });
        await page.emulateMedia({ colorScheme: theme });
        for (const size of [
          { width: 800, height: 600 },
          { width: 1920, height: 1080 },
        ]) {
          await page.setViewportSize(size);
          await panel.getByTestId('lyrics-mapped').scrollIntoViewIfNeeded();
          await page.screenshot({
            path: `${process.env.LYRICS_SHOTS_DIR}/lyrics-mapped-${theme}-${size.width}.png`,
          });
        }
      }
    }
    await queue(page);
    const queued = view.bridge.queuedTasks().at(-1)!;
    expect(queued.request.input.lyrics).toBe(
      '[inst]\n[verse]\nCity lights\n[verse]\nHold on\n[chorus]\nLa la\n[Male Vocal]\nHey\n[inst]',
    );
  });
});

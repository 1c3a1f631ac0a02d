/**
 * A new user with an API key for the hosted service. The rig's `hosted` mode points the hosted
 * profile (the real service, vendor `Qubico`) at a sandbox that answers like the real service,
 * so everything else is what the user would get: first run → "Use my API key" → the key stored
 * (after confirming the unencrypted storage) → the app sends to the hosted service, shows the
 * balance there, sends a song as `Qubico/ace-step` and shows the balance go down; a model id
 * override from Settings › Advanced is sent, an invalid one is refused beside its field; demo
 * mode turned back on still runs on the built-in sandbox with its own ids and its own library.
 * And a wrong key: the balance line says the service refused it. The library's cards say what each
 * task cost: billed once the service said, a figure far off the published price flagged (a task
 * planted in the paid library), and never a charge in the demo library.
 */
import type { Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import type { LedgerEntry } from '../../src/sandbox/index.ts';
import { HOSTED_SERVICE, type Task } from '../../src/shared/index.ts';
import { billedCostOf } from '../../src/shared/task/billed-cost.ts';
import { waitUntil } from '../support/wait-until.ts';
import { SERVICE_KEY, type StudioPage, type StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, fillSong, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

/** A 3D model in the paid library whose reported cost was ten times its published $0.04. */
const FLAGGED_ID = 'planted-flagged-3d';

function plantFlaggedCost(libraryDir: string): void {
  const store = LibraryStore.open(libraryDir);
  try {
    const request = { model: 'Qubico/trellis', task_type: 'text-to-3d', input: { prompt: 'a toy boat' } };
    store.insertTask({
      id: FLAGGED_ID,
      model: request.model,
      taskType: request.task_type,
      title: 'Toy boat',
      request,
      estimateMicros: 40_000,
    });
    const usage = { type: 'point', frozen: 400_000, consume: 4_000_000 };
    store.transition(FLAGGED_ID, 'saved', {
      patch: { remoteId: 'r-flagged', usage, cost: billedCostOf(usage, 40_000, 0.1) },
    });
  } finally {
    store.close();
  }
}

/** First run: the welcome dialog's "Use my API key" opens Settings. */
async function chooseOwnKey(page: Page): Promise<void> {
  const welcome = page.getByTestId('welcome-dialog');
  await welcome.getByRole('button', { name: 'Use my API key' }).click();
  await welcome.waitFor({ state: 'detached' });
  await page.getByRole('heading', { level: 1, name: 'Settings', exact: true }).waitFor();
}

/**
 * Types a key into Settings › API key and saves it. The harness's key vault (FileKeyVault) is a
 * plain file, so main asks before storing it, in its own dialog (scripted: the user agrees);
 * the page shows no question of its own.
 */
async function storeKey(page: Page, key: string): Promise<void> {
  const field = page.getByRole('textbox', { name: /^(Replace )?API key$/ });
  await field.fill(key);
  await page.getByRole('button', { name: 'Save key', exact: true }).click();
  await waitUntil(
    async () => (await field.inputValue()) === '',
    'the key field emptied once the key is saved',
  );
  await page.getByTestId('key-status').filter({ hasText: 'Saved: a key is set' }).waitFor();
  expect(await page.getByTestId('confirm-dialog').count()).toBe(0);
}

/** The balance line of Settings once it shows `text` (e.g. `$10.00 left`). */
async function settingsBalance(page: Page, text: string): Promise<Locator> {
  const balance = page.getByTestId('balance').filter({ hasText: `Balance: ${text}` });
  await balance.waitFor();
  return balance;
}

/** Queues a song from the composer and waits until the library has saved it. */
async function queueSong(view: StudioPage, rig: StudioRig, style: string, seconds: number): Promise<Task> {
  await fillSong(view.page, { style, seconds });
  await queue(view.page);
  const queued = view.bridge.queuedTasks().at(-1)!;
  expect(queued).toMatchObject({ taskType: 'txt2audio' });
  return rig.waitForTask(queued.id, ['saved']);
}

/** The model-id field of a catalog entry (`ace-step/txt2audio`) in Settings › Advanced (opened first when closed). */
async function modelIdField(page: Page, entryId: string): Promise<Locator> {
  const advanced = page.locator('details.advanced');
  if (!(await advanced.evaluate((el) => (el as unknown as { open: boolean }).open))) {
    await advanced.getByText('Advanced: model ids', { exact: true }).click();
  }
  const field = page.getByTestId(`model-id-${entryId}`);
  await field.waitFor();
  return field;
}

async function overrides(rig: StudioRig): Promise<Record<string, string>> {
  return (await rig.call('settings.get', {})).modelOverrides;
}

/** The ledger entry of a task the service accepted (by its remote id). */
async function ledgerEntryOf(entries: () => Promise<LedgerEntry[]>, task: Task): Promise<LedgerEntry> {
  return waitUntil(
    async () => (await entries()).find((e) => e.taskId === task.remoteId),
    `the ledger entry of ${task.remoteId}`,
  );
}

describe.skipIf(!browserAvailable())('a new user with a key for the hosted service', () => {
  let rig: StudioRig;
  let view: StudioPage;
  const paid: Task[] = [];

  // 12.50 USD at the stand-in, so its balance cannot be taken for the demo sandbox's 10 USD.
  openStudio(
    { service: 'hosted', sandbox: { balanceMicros: 12_500_000 }, prepareLibrary: plantFlaggedCost },
    (opened) => {
      ({ rig, view } = opened);
    },
  );

  it('stores the key from the first run, then sends to the hosted service and shows its balance', async () => {
    const { page } = view;
    await chooseOwnKey(page);
    const now = page.getByTestId('service-now');
    // Demo mode is on by default until a key is stored.
    await now.filter({ hasText: 'Now sending to: the demo sandbox.' }).waitFor();

    await storeKey(page, SERVICE_KEY);
    // no keyring here: main asked, in its own dialog, before storing the key
    expect(rig.dialogs.confirmed.map((q) => q.title)).toEqual(['Store the API key without encryption?']);
    await now
      .filter({ hasText: `Now sending to: the hosted service (${HOSTED_SERVICE.baseUrl}).` })
      .waitFor();
    expect(await page.getByRole('switch', { name: 'Demo mode (built-in sandbox)' }).isChecked()).toBe(false);
    expect(await page.getByRole('radio', { name: /^The hosted service/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'A custom address' }).isChecked()).toBe(false);
    // The custom address fields only show for the custom profile.
    expect(await page.getByLabel('Service base URL').count()).toBe(0);
    expect(await rig.call('settings.get', {})).toMatchObject({
      hasApiKey: true,
      demoMode: false,
      serviceProfile: 'hosted',
      firstRun: false,
    });
    expect(await rig.call('engine.status', {})).toMatchObject({ service: 'remote' });

    // The demo sandbox's balance showed before; now the stand-in's, as real money: no demo note.
    const balance = await settingsBalance(page, '$12.50 left');
    expect(await balance.textContent()).not.toContain('demo sandbox');
    expect(await page.getByTestId('balance-problem').count()).toBe(0);
  });

  it('sends a song as Qubico/ace-step, saves it, and the balance shown goes down', async () => {
    const { page } = view;
    await openView(page, 'compose');
    const compact = page.getByTestId('balance-compact');
    await compact.filter({ hasText: 'Balance $12.50 left' }).waitFor();
    expect(await compact.textContent()).not.toContain('demo');

    // 20 s at $0.0005/s: $0.01.
    const song = await queueSong(view, rig, 'hosted bossa nova, brushed drums', 20);
    paid.push(song);
    expect(song.model).toBe('Qubico/ace-step');
    expect(song.outputs[0]).toMatchObject({ kind: 'audio', state: 'saved' });
    const entry = await ledgerEntryOf(() => rig.ledger(), song);
    expect(entry).toMatchObject({ model: 'Qubico/ace-step', taskType: 'txt2audio', apiKey: SERVICE_KEY });
    expect((entry.body as { input: Record<string, unknown> }).input).toMatchObject({
      style_prompt: 'hosted bossa nova, brushed drums',
      duration: 20,
    });

    // The renderer asks for the balance again shortly after the task ends.
    await compact.filter({ hasText: 'Balance $12.49 left' }).waitFor();
    await openView(page, 'settings');
    await settingsBalance(page, '$12.49 left');

    // its card says what it was billed; the planted task's figure, ten times its price, is flagged
    await openView(page, 'library');
    const songCost = card(page, song.id).getByTestId('card-cost');
    await songCost.filter({ hasText: '$0.01' }).waitFor();
    expect(await songCost.getAttribute('data-flagged')).toBeNull();
    const flagged = card(page, FLAGGED_ID).getByTestId('card-cost');
    expect(await flagged.textContent()).toBe('$0.40 (check)');
    expect(await flagged.getAttribute('data-flagged')).toBe('true');
    expect(await flagged.getAttribute('title')).toBe(
      'reported $0.40; published price $0.04 — check your account ($0.40 counted)',
    );
    await openView(page, 'settings'); // where the next test starts
  });

  it('"Check balance" shows what the account spent elsewhere', async () => {
    const { page } = view;
    // Another client of the same account starts a 100 s song ($0.05, frozen at once).
    const response = await fetch(`${rig.sandbox().url}/api/v1/task`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': SERVICE_KEY },
      body: JSON.stringify({
        model: 'Qubico/ace-step',
        task_type: 'txt2audio',
        input: { style_prompt: 'elsewhere', duration: 100 },
      }),
    });
    expect(response.status).toBe(200);
    await settingsBalance(page, '$12.49 left');
    await page.getByRole('button', { name: 'Check balance' }).click();
    await settingsBalance(page, '$12.44 left');
  });

  it('sends a model id set in Advanced, refuses an invalid one, and clearing it restores the default', async () => {
    const { page } = view;
    await openView(page, 'settings');
    const field = await modelIdField(page, 'ace-step/txt2audio');
    expect(await field.getAttribute('placeholder')).toBe('Qubico/ace-step');
    expect(await (await modelIdField(page, 'qwen-image/image-edit')).getAttribute('placeholder')).toBe(
      'Qubico/qwen-image',
    );

    // An id without a vendor is refused beside the field, and nothing is saved.
    await field.fill('no-vendor');
    await field.press('Enter');
    const row = page.locator('.model-id-row').filter({ has: field });
    await row.getByTestId('field-error').filter({ hasText: 'is not a model id' }).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await overrides(rig)).toEqual({});

    // An id the stand-in knows under another vendor: saved with Enter, and sent.
    await field.fill('service/ace-step');
    await field.press('Enter');
    await waitUntil(
      async () => (await overrides(rig))['ace-step/txt2audio'] === 'service/ace-step',
      'the txt2audio override to be saved',
    );
    const saved = await modelIdField(page, 'ace-step/txt2audio');
    expect(await saved.inputValue()).toBe('service/ace-step');
    expect(await saved.getAttribute('aria-invalid')).toBeNull();
    await page
      .locator('.model-id-row')
      .filter({ has: saved })
      .getByText('Default: Qubico/ace-step')
      .waitFor();

    const overridden = await queueSong(view, rig, 'override test, kalimba', 4);
    paid.push(overridden);
    expect(overridden.model).toBe('service/ace-step');
    expect(await ledgerEntryOf(() => rig.ledger(), overridden)).toMatchObject({ model: 'service/ace-step' });

    // Emptied and left (blur): the default again.
    await openView(page, 'settings');
    const cleared = await modelIdField(page, 'ace-step/txt2audio');
    await cleared.fill('');
    await cleared.blur();
    await waitUntil(
      async () => !('ace-step/txt2audio' in (await overrides(rig))),
      'the override to be removed',
    );
    const back = await queueSong(view, rig, 'default again, marimba', 4);
    paid.push(back);
    expect(back.model).toBe('Qubico/ace-step');
    expect(await ledgerEntryOf(() => rig.ledger(), back)).toMatchObject({ model: 'Qubico/ace-step' });
  });

  it('turning demo mode back on runs on the built-in sandbox with its own ids and library', async () => {
    const { page } = view;
    await openView(page, 'settings');
    // An override the built-in sandbox would accept too: if demo mode used it, its ledger would show it.
    const field = await modelIdField(page, 'ace-step/txt2audio');
    await field.fill('Qubico/ace-step');
    await field.press('Enter');
    await waitUntil(
      async () => (await overrides(rig))['ace-step/txt2audio'] === 'Qubico/ace-step',
      'the override',
    );
    const paidLedger = (await rig.ledger()).length;

    // The switch shows the saved setting, so it flips once the backend has switched.
    await page.getByRole('switch', { name: 'Demo mode (built-in sandbox)' }).click();
    await page.getByTestId('service-now').filter({ hasText: 'Now sending to: the demo sandbox.' }).waitFor();
    await page.getByTestId('demo-banner').waitFor();
    expect(await page.locator('details.advanced').textContent()).toContain(
      'Demo mode uses the sandbox’s own ids.',
    );
    // A fresh built-in sandbox with its own (pretend) money.
    await settingsBalance(page, '$10.00 left (demo sandbox, not real money)');

    // The demo library does not show the paid tasks.
    await openView(page, 'library');
    expect(await page.getByTestId('task-card').count()).toBe(0);
    expect(await rig.tasks()).toEqual([]);

    const demo = await queueSong(view, rig, 'demo polka, accordion', 4);
    expect(demo.model).toBe('service/ace-step');
    expect(await ledgerEntryOf(() => rig.demoLedger(), demo)).toMatchObject({
      model: 'service/ace-step',
      taskType: 'txt2audio',
    });
    await openView(page, 'library');
    await card(page, demo.id).and(page.locator('[data-state="saved"]')).waitFor();
    expect(await page.getByTestId('task-card').count()).toBe(1);
    // nothing is billed in the demo library: its card says so, never a charge
    expect(await card(page, demo.id).getByTestId('card-cost').textContent()).toBe('Demo: not billed');
    for (const task of paid) expect(await card(page, task.id).count()).toBe(0);
    // Nothing reached the paid service.
    expect(await rig.ledger()).toHaveLength(paidLedger);
  });
});

describe.skipIf(!browserAvailable())('a new user who stores a wrong key', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'hosted' }, (opened) => {
    ({ rig, view } = opened);
  });

  it('says in words that the service refused the key, and keeps demo mode: a refused key is not stored (review s7b, defect 2)', async () => {
    const { page } = view;
    await chooseOwnKey(page);
    const field = page.getByRole('textbox', { name: /^(Replace )?API key$/ });
    await field.fill('not-the-sandbox-key-42');
    await page.getByRole('button', { name: 'Save key', exact: true }).click();
    const error = page.getByTestId('field-error').filter({ hasText: 'refused' });
    await error.waitFor();
    // one sentence: what happened, in the service's words, and what to do (not "Check the key in Settings")
    expect(await error.textContent()).toBe(
      'The service refused this key: Invalid API key. Check that you copied the whole key from your account page.',
    );
    expect(await page.getByTestId('key-status').textContent()).toBe('No key');
    expect(await rig.call('settings.get', {})).toMatchObject({
      demoMode: true,
      hasApiKey: false,
      demoLibrary: true,
    });
    expect(await page.getByTestId('service-check').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain('Check the key in Settings');
    expect(await rig.ledger()).toEqual([]);

    // the right key is stored and leaves the demo
    await storeKey(page, SERVICE_KEY);
    await page
      .getByTestId('service-now')
      .filter({ hasText: `Now sending to: the hosted service (${HOSTED_SERVICE.baseUrl}).` })
      .waitFor();
  });

  it('"A custom address" changes where tasks go only once the custom service is saved', async () => {
    const { page } = view;
    const hostedNow = `Now sending to: the hosted service (${HOSTED_SERVICE.baseUrl}).`;
    const updates = () => view.bridge.calls.filter((c) => c.name === 'settings.update').length;
    const before = updates();
    await page.getByRole('radio', { name: 'A custom address' }).check();
    const url = page.getByLabel('Service base URL');
    await url.waitFor();
    // nothing typed yet: the queue still goes to the hosted service, and says until when
    expect(await page.getByTestId('service-now').textContent()).toBe(hostedNow);
    expect(await page.getByTestId('custom-pending').textContent()).toBe(
      'Tasks keep going where they go now until you save the custom service.',
    );
    expect(updates()).toBe(before);
    expect((await rig.call('settings.get', {})).serviceProfile).toBe('hosted');
    // back to the hosted service: nothing to save, nothing saved
    await page.getByRole('radio', { name: /^The hosted service/ }).check();
    await url.waitFor({ state: 'detached' });
    expect(updates()).toBe(before);

    // chosen and saved: now it goes there
    const custom = 'http://127.0.0.1:9';
    await page.getByRole('radio', { name: 'A custom address' }).check();
    await url.fill(custom);
    await page.getByRole('button', { name: 'Save custom service' }).click();
    await page
      .getByTestId('service-now')
      .filter({ hasText: `your custom service (${custom})` })
      .waitFor();
    expect(await rig.call('settings.get', {})).toMatchObject({ serviceProfile: 'custom', baseUrl: custom });
    await page.getByTestId('custom-pending').waitFor({ state: 'detached' });
  });
});

import { describe, expect, it } from 'vitest';
import {
  activityItems,
  atServiceWords,
  sectionCountWords,
} from '../../src/renderer/src/features/activity/activity-items.ts';
import { buildDraft, emptyForms, randomSeed } from '../../src/renderer/src/features/compose/compose-model.ts';
import { formsFromDraft } from '../../src/renderer/src/features/compose/compose-rerun.ts';
import {
  queueBlocker,
  SLOT_RULES,
  slotFromValue,
  urlProblem,
} from '../../src/renderer/src/features/compose/compose-slots.ts';
import { mediaPlace } from '../../src/renderer/src/features/compose/media-place.ts';
import {
  belongsAtTop,
  EMPTY_FILTERS,
  toListQuery,
  toTaskFilter,
} from '../../src/renderer/src/model/library-query.ts';
import {
  activitySections,
  type LoadedTask,
  progressOf,
  taskCounts,
} from '../../src/renderer/src/model/task-status.ts';
import { useStudio } from '../../src/renderer/src/state/studio-state.ts';
import type { AppInfo, DraftView, StudioSettings, TaskState } from '../../src/shared/index.ts';
import { loadedTask } from './loaded-task.ts';

const place = { libraryDir: '/lib', mediaBaseUrl: 'studio-media://library/' };

function task(id: string, state: TaskState, patch: Partial<LoadedTask> = {}): LoadedTask {
  return loadedTask({ id, title: id, state, ...patch });
}

describe('buildDraft', () => {
  it('builds a song draft without empty fields', () => {
    const forms = emptyForms();
    forms.song = { stylePrompt: 'lo-fi', negativePrompt: '', lyrics: '[verse]\nla', duration: 42 };
    const built = buildDraft('song', forms);
    expect(built).toEqual({
      ok: true,
      draft: {
        // the catalog's model name: the engine adds the service profile's vendor
        model: 'ace-step',
        taskType: 'txt2audio',
        input: { style_prompt: 'lo-fi', lyrics: '[verse]\nla', duration: 42 },
        webhook: null,
      },
    });
  });

  it('keeps an empty image-edit prompt for the engine to refuse by name, and checks numbers locally', () => {
    const forms = emptyForms();
    forms.slots.image1 = { ...forms.slots.image1, value: '/tmp/a.png', status: 'ok' };
    forms.imageEdit = { prompt: '', negativePrompt: '', seed: '12', steps: '30', flowShift: '3.5' };
    const built = buildDraft('imageEdit', forms);
    expect(built.ok && built.draft.input).toEqual({
      image1: '/tmp/a.png',
      prompt: '',
      seed: 12,
      steps: 30,
      flow_shift: 3.5,
    });
    // in the rule's one wording: the catalog's label and bounds, as the engine and the CLI say it
    forms.imageEdit = { ...forms.imageEdit, steps: '500' };
    expect(buildDraft('imageEdit', forms)).toMatchObject({
      ok: false,
      field: 'steps',
      message: 'Steps must be from 1 to 100',
    });
    forms.imageEdit = { ...forms.imageEdit, steps: 'many' };
    expect(buildDraft('imageEdit', forms)).toMatchObject({
      ok: false,
      field: 'steps',
      message: 'Steps must be a whole number',
    });
    forms.imageEdit = { ...forms.imageEdit, steps: '', seed: '1.5' };
    expect(buildDraft('imageEdit', forms)).toMatchObject({
      ok: false,
      field: 'seed',
      message: 'Seed must be a whole number',
    });
  });

  it('adds the webhook, title and re-run origin', () => {
    const forms = emptyForms();
    forms.common.faceSwap = {
      title: ' My swap ',
      webhookEndpoint: 'https://hook.test/x',
      webhookSecret: 's',
    };
    forms.parent.faceSwap = { taskId: 'abc', output: null, title: 'Swap' };
    const built = buildDraft('faceSwap', forms);
    expect(built).toMatchObject({
      ok: true,
      draft: {
        title: 'My swap',
        parentId: 'abc',
        parentOutput: null,
        webhook: { endpoint: 'https://hook.test/x', secret: 's' },
      },
    });
  });

  it("keeps a tab's title and re-run marker to that tab: a song after re-running a face swap is neither", () => {
    const forms = emptyForms();
    forms.common.faceSwap = { title: 'Beach portrait', webhookEndpoint: '', webhookSecret: '' };
    forms.parent.faceSwap = { taskId: 'swap-1', output: null, title: 'Beach portrait' };
    forms.song = { stylePrompt: 'lo-fi', negativePrompt: '', lyrics: '', duration: 30 };
    const song = buildDraft('song', forms);
    expect(song.ok && song.draft.title).toBeUndefined();
    expect(song.ok && song.draft.parentId).toBeUndefined();
  });

  it('refuses invalid JSON in the Other tab with its position', () => {
    const forms = emptyForms();
    forms.other = { model: 'image-gen', taskType: 'txt2img', modelId: '', json: '{"prompt": }' };
    expect(buildDraft('other', forms)).toMatchObject({
      ok: false,
      field: 'input',
      message: expect.stringMatching(/^Line 1, column/),
    });
  });
});

describe('re-run forms', () => {
  it('fills the face swap slots from library paths, with previews', () => {
    const draft: DraftView = {
      model: 'service/image-toolkit',
      taskType: 'face-swap',
      input: { target_image: '/lib/inputs/t1/target.png', swap_image: 'https://x.test/face.jpg' },
      webhook: null,
      title: 'Swap',
    };
    const { tab, forms } = formsFromDraft(draft, 't1', emptyForms(), place);
    expect(tab).toBe('faceSwap');
    expect(forms.parent.faceSwap).toMatchObject({ taskId: 't1', output: null });
    expect(forms.parent.song).toBeNull();
    expect(forms.slots.target_image).toMatchObject({
      origin: 'library',
      label: 'target.png',
      previewUrl: 'studio-media://library/inputs/t1/target.png',
      status: 'checking',
    });
    expect(forms.slots.swap_image).toMatchObject({ origin: 'url', previewUrl: 'https://x.test/face.jpg' });
    expect(buildDraft(tab, forms)).toMatchObject({
      ok: true,
      draft: { input: { target_image: '/lib/inputs/t1/target.png' } },
    });
  });

  it('keeps the re-run task’s webhook secret by naming that task, never by reading it', () => {
    const draft: DraftView = {
      model: 'service/ace-step',
      taskType: 'txt2audio',
      input: { style_prompt: 'jazz', duration: 30 },
      webhook: { endpoint: 'https://hook.test/x', secret: '', sameSecretAs: 't1' },
      title: 'Jazz',
    };
    const { tab, forms } = formsFromDraft(draft, 't1', emptyForms(), place);
    expect(forms.common.song.webhookSecret).toBe('');
    const kept = buildDraft(tab, forms);
    expect(kept.ok && kept.draft.webhook).toEqual({
      endpoint: 'https://hook.test/x',
      secret: '',
      sameSecretAs: 't1',
    });
    // a secret typed in replaces it; a task made from a result is no re-run
    forms.common.song.webhookSecret = 'new';
    const typed = buildDraft(tab, forms);
    expect(typed.ok && typed.draft.webhook).toEqual({ endpoint: 'https://hook.test/x', secret: 'new' });
    forms.common.song.webhookSecret = '';
    forms.parent.song = { taskId: 't1', output: 0, title: 'Jazz' };
    const fromResult = buildDraft(tab, forms);
    expect(fromResult.ok && fromResult.draft.webhook).toEqual({
      endpoint: 'https://hook.test/x',
      secret: '',
    });
  });

  it('fills a song and an other task', () => {
    const song = formsFromDraft(
      {
        model: 'service/ace-step',
        taskType: 'txt2audio',
        input: { style_prompt: 'jazz', duration: 999 },
        webhook: null,
        title: '',
      },
      null,
      emptyForms(),
      place,
    );
    expect(song.forms.song).toMatchObject({ stylePrompt: 'jazz', duration: 240 });
    const other = formsFromDraft(
      {
        model: 'service/image-toolkit',
        taskType: 'upscale',
        input: { image: 'https://x.test/a.png', scale: 2 },
        webhook: null,
        title: '',
      },
      null,
      emptyForms(),
      place,
    );
    expect(other.tab).toBe('other');
    expect(JSON.parse(other.forms.other.json)).toEqual({ image: 'https://x.test/a.png', scale: 2 });
  });

  it("finds library files in the library in use: demo mode's own, not the user's (review s7b, defect 3)", () => {
    const before = useStudio.getState();
    try {
      useStudio.setState({
        appInfo: {
          ...before.appInfo,
          libraryDir: '/user/library',
          mediaBaseUrl: place.mediaBaseUrl,
        } as AppInfo,
        settings: {
          ...before.settings,
          libraryDir: '/user/library',
          libraryInUse: '/data/demo-library',
        } as StudioSettings,
      });
      expect(mediaPlace()).toEqual({ libraryDir: '/data/demo-library', mediaBaseUrl: place.mediaBaseUrl });
      const { forms } = formsFromDraft(
        {
          model: 'Qubico/trellis',
          taskType: 'image-to-3d',
          input: { image: '/data/demo-library/inputs/h.jpg' },
          webhook: null,
          title: '',
        },
        't1',
        emptyForms(),
        mediaPlace(),
      );
      expect(forms.slots.model3d_picture).toMatchObject({
        origin: 'library',
        previewUrl: expect.stringContaining('inputs/h.jpg'),
      });
    } finally {
      useStudio.setState({ appInfo: before.appInfo, settings: before.settings });
    }
  });

  it('opens a Flux, Hunyuan or Trellis task in the tab that lists its entry, filled in, its media in the slot', () => {
    const rerun = (model: string, taskType: string, input: Record<string, unknown>) =>
      formsFromDraft({ model, taskType, input, webhook: null, title: 'Again' }, 't9', emptyForms(), place);

    const flux = rerun('Qubico/flux1-dev', 'txt2img', { prompt: 'a red fox', width: 512, height: 512 });
    expect(flux.tab).toBe('image');
    expect(flux.forms.kinds.image.entryId).toBe('flux1-dev/txt2img');
    expect(JSON.parse(flux.forms.kinds.image.json)).toEqual({ prompt: 'a red fox', width: 512, height: 512 });
    expect(flux.forms.parent.image).toMatchObject({ taskId: 't9', output: null });
    expect(flux.forms.common.image.title).toBe('Again');
    expect(buildDraft(flux.tab, flux.forms)).toMatchObject({
      ok: true,
      draft: { taskType: 'txt2img', input: { prompt: 'a red fox', width: 512, height: 512 } },
    });

    const hunyuan = rerun('Qubico/hunyuan', 'img2video-concat', {
      prompt: 'the boats rock',
      image: '/lib/inputs/ab.png',
    });
    expect(hunyuan.tab).toBe('video');
    expect(hunyuan.forms.kinds.video.entryId).toBe('hunyuan/img2video-concat');
    // the picture is the tab's slot, not a value of the form
    expect(JSON.parse(hunyuan.forms.kinds.video.json)).toEqual({ prompt: 'the boats rock' });
    expect(hunyuan.forms.slots.video_picture).toMatchObject({
      origin: 'library',
      value: '/lib/inputs/ab.png',
    });
    expect(buildDraft(hunyuan.tab, hunyuan.forms)).toMatchObject({
      ok: true,
      draft: { input: { prompt: 'the boats rock', image: '/lib/inputs/ab.png' } },
    });

    const trellis = rerun('Qubico/trellis', 'image-to-3d', { image: 'https://x.test/teapot.png', seed: 7 });
    expect(trellis.tab).toBe('model3d');
    expect(trellis.forms.kinds.model3d.entryId).toBe('trellis/image-to-3d');
    expect(trellis.forms.slots.model3d_picture).toMatchObject({
      origin: 'url',
      value: 'https://x.test/teapot.png',
    });

    // a face onto a video is the Video tab's, though its task type is the picture face swap's
    const onVideo = rerun('Qubico/video-toolkit', 'face-swap', {
      target_video: '/lib/inputs/clip.mp4',
      swap_image: '/lib/inputs/face.png',
    });
    expect(onVideo.tab).toBe('video');
    expect(onVideo.forms.kinds.video.entryId).toBe('video-toolkit/face-swap');
    expect(onVideo.forms.slots.video_source).toMatchObject({ value: '/lib/inputs/clip.mp4' });
    expect(onVideo.forms.slots.video_picture).toMatchObject({ value: '/lib/inputs/face.png' });
    // the picture face swap keeps its own tab
    expect(rerun('Qubico/image-toolkit', 'face-swap', {}).tab).toBe('faceSwap');
  });

  it('describes embedded data', () => {
    expect(slotFromValue('iVBORw0KGgo'.repeat(100), 'image', place)).toMatchObject({
      origin: 'data',
      label: expect.stringContaining('Embedded image'),
    });
    expect(slotFromValue('', 'image', place).status).toBe('empty');
  });
});

describe('slots', () => {
  it('names the disallowed extension of a face swap URL', () => {
    expect(urlProblem('https://x.test/a.gif', SLOT_RULES.target_image)).toBe(
      'A .gif URL is not allowed for a face swap; use .jpg, .jpeg, .png or .webp',
    );
    expect(urlProblem('https://x.test/a.PNG?x=1', SLOT_RULES.target_image)).toBeNull();
    expect(urlProblem('https://x.test/a.gif', SLOT_RULES.image1)).toBeNull();
    expect(urlProblem('not a url', SLOT_RULES.image1)).toMatch(/http/);
  });

  it('blocks queueing a face swap until both slots pass', () => {
    const forms = emptyForms();
    // the catalog field's one sentence (the engine's and the CLI's too)
    expect(queueBlocker('faceSwap', forms.slots)).toBe('Add a target image');
    forms.slots.target_image = { ...forms.slots.target_image, status: 'ok', value: 'x' };
    forms.slots.swap_image = {
      ...forms.slots.swap_image,
      status: 'bad',
      message: '3000 x 3000 px; each side must be under 2048 px',
    };
    expect(queueBlocker('faceSwap', forms.slots)).toBe(
      'Face image: 3000 x 3000 px; each side must be under 2048 px',
    );
    forms.slots.swap_image = { ...forms.slots.swap_image, status: 'ok' };
    expect(queueBlocker('faceSwap', forms.slots)).toBeNull();
    expect(queueBlocker('imageEdit', forms.slots)).toBeNull();
  });

  it('makes seeds in range', () => {
    expect(randomSeed(() => 0)).toBe(0);
    expect(randomSeed(() => 0.999999999)).toBeLessThan(2_147_483_647);
  });
});

describe('task status', () => {
  const now = Date.parse('2025-01-01T12:00:00.000Z');

  it('sorts tasks into activity sections', () => {
    const sections = activitySections(
      [
        task('q', 'queued'),
        task('p', 'processing'),
        task('u', 'uncertain'),
        task('f', 'failed', { updatedAt: '2025-01-01T11:00:00.000Z' }),
        task('old', 'failed', { updatedAt: '2024-12-01T11:00:00.000Z' }),
        task('s', 'saved', { updatedAt: '2025-01-01T11:30:00.000Z' }),
      ],
      now,
    );
    expect(sections.map((s) => [s.id, s.tasks.map((t) => t.id)])).toEqual([
      ['decide', ['u']],
      ['running', ['p']],
      ['queued', ['q']],
      ['failed', ['f']],
      ['finished', ['s']],
    ]);
  });

  it('counts each Activity section by the rows it lists: a batch is one group, in its first section', () => {
    // a batch running (one sent, two waiting, one already saved) and one task of its own waiting
    const batch = { batchId: 'b1' };
    const all = [
      task('b-run', 'processing', { ...batch, createdAt: '2025-01-01T11:00:00.000Z' }),
      task('b-q1', 'queued', { ...batch, createdAt: '2025-01-01T11:00:01.000Z' }),
      task('b-q2', 'queued', { ...batch, createdAt: '2025-01-01T11:00:02.000Z' }),
      task('b-done', 'saved', {
        ...batch,
        createdAt: '2025-01-01T11:00:03.000Z',
        updatedAt: '2025-01-01T11:30:00.000Z',
      }),
      task('alone', 'queued', { createdAt: '2025-01-01T11:10:00.000Z' }),
    ];
    const items = activityItems(activitySections(all, now), all, 0);
    const shown = items.map((item) =>
      item.kind === 'header'
        ? `${item.title} ${item.count}`
        : item.kind === 'batch'
          ? `batch of ${item.tasks.map((t) => t.id).join(',')}`
          : item.kind === 'task'
            ? item.task.id
            : `older ${item.count}`,
    );
    // no "Waiting to be sent 3" over one row, no "Recently finished 1" over none
    expect(shown).toEqual([
      'Running 4 tasks in 1 batch',
      'batch of b-run,b-q1,b-q2,b-done',
      'Waiting to be sent 1',
      'alone',
    ]);
    expect(sectionCountWords(2, 2, 5)).toBe('2 tasks + 5 in 2 batches');
    expect(sectionCountWords(1, 0, 0)).toBe('1');
  });

  it('says what runs at the service, naming the tasks from elsewhere only when there are some', () => {
    expect(atServiceWords({ running: 3, waiting: 1, fromElsewhere: 2 })).toBe(
      'At the service: 3 running, 1 waiting (2 from elsewhere)',
    );
    expect(atServiceWords({ running: 1, waiting: 0, fromElsewhere: 0 })).toBe(
      'At the service: 1 running, 0 waiting',
    );
  });

  it('counts active and uncertain tasks', () => {
    expect(
      taskCounts([task('a', 'queued'), task('b', 'processing'), task('c', 'uncertain'), task('d', 'saved')]),
    ).toEqual({
      active: 2,
      uncertain: 1,
    });
  });

  it('measures progress from submission against the expected time', () => {
    const running = task('p', 'processing', { submittedAt: '2025-01-01T11:59:30.000Z', expectedMs: 60_000 });
    expect(progressOf(running, now)).toEqual({ elapsedMs: 30_000, expectedMs: 60_000, ratio: 0.5 });
    const late = task('p', 'processing', { submittedAt: '2025-01-01T11:50:00.000Z', expectedMs: 60_000 });
    expect(progressOf(late, now).ratio).toBe(0.97);
    expect(progressOf(task('q', 'queued'), now).ratio).toBeNull();
    const placeholderEnd = task('p', 'pending', {
      submittedAt: '2025-01-01T11:59:50.000Z',
      endedAt: '0001-01-01T00:00:00Z',
      expectedMs: 60_000,
    });
    expect(progressOf(placeholderEnd, now).elapsedMs).toBe(10_000);
  });
});

describe('library query', () => {
  it('turns the filter bar into a list query', () => {
    const filters = {
      ...EMPTY_FILTERS,
      family: 'song' as const,
      state: 'active' as const,
      favorite: true,
      search: ' piano ',
    };
    const query = toListQuery(filters, 100, null);
    expect(query).toMatchObject({
      family: 'song',
      favorite: true,
      search: 'piano',
      order: 'newest',
      limit: 100,
      cursor: null,
    });
    expect(query.states).toContain('queued');
    expect(toTaskFilter(EMPTY_FILTERS)).toEqual({});
    const dated = toTaskFilter({ ...EMPTY_FILTERS, from: '2025-01-02', to: '2025-01-03' });
    expect(Date.parse(dated.createdTo!) - Date.parse(dated.createdFrom!)).toBe(2 * 86_400_000 - 1);
  });

  it('puts live tasks on top only when they match and the order is newest', () => {
    const t = task('n', 'queued', { family: 'song' });
    expect(belongsAtTop(t, EMPTY_FILTERS)).toBe(true);
    expect(belongsAtTop(t, { ...EMPTY_FILTERS, family: 'face-swap' })).toBe(false);
    expect(belongsAtTop(t, { ...EMPTY_FILTERS, order: 'starredFirst' })).toBe(false);
    expect(belongsAtTop(t, { ...EMPTY_FILTERS, favorite: true })).toBe(false);
    expect(belongsAtTop(t, { ...EMPTY_FILTERS, search: 'x' })).toBe(false);
    expect(belongsAtTop(t, { ...EMPTY_FILTERS, state: 'saved' })).toBe(false);
    // which board a task is on is the library's to say: a board's view waits for its next load
    expect(belongsAtTop(t, { ...EMPTY_FILTERS, board: 3 })).toBe(false);
    expect(toTaskFilter({ ...EMPTY_FILTERS, board: 3 })).toEqual({ board: 3 });
  });
});

/**
 * Answers of the real hosted service for the families of issue 19 (text and image to image,
 * video, video face swap, 3D), copied as their sources show them (the vendor's docs), or written
 * from the field notes (`../shared/notes/catalog-families.md`) where no public example of a
 * shape was found. Part of the corpus of real-answers.ts, which tests each.
 */
import type { TaskAnswer } from './real-answers-refusals.ts';

const NO_ERROR = { code: 0, raw_message: '', message: '', detail: null };
const NO_WEBHOOK = { endpoint: '', secret: '' };
const NOTES = 'field notes (catalog-families.md:';

/** A hosted record of `model`/`taskType` with this `output` (completed unless said), as the notes describe it. */
function completed(
  id: string,
  model: string,
  taskType: string,
  output: Record<string, unknown>,
  status = 'completed',
) {
  return {
    code: 200,
    data: {
      task_id: id,
      model,
      task_type: taskType,
      status,
      config: { service_mode: '', webhook_config: NO_WEBHOOK },
      input: {},
      output,
      meta: {
        created_at: '2025-11-26T08:17:30.677144106Z',
        started_at: '2025-11-26T08:17:31.102934711Z',
        ended_at: '2025-11-26T08:20:02.55120871Z',
        usage: { type: 'point', frozen: 0, consume: 400000 },
        is_using_private_pool: false,
      },
      detail: null,
      logs: [],
      error: NO_ERROR,
    },
    message: 'success',
  };
}

export const FAMILY_ANSWERS: readonly TaskAnswer[] = [
  {
    kind: 'task',
    name: 'flux txt2img create: empty status, error code 1100 with no message',
    source: 'https://piapi.ai/docs/flux-api/text-to-image',
    note: 'the docs\' create example: status "" (pending), output {}, meta {}, error {code: 1100, message: ""}: not a failure',
    httpStatus: 200,
    body: {
      code: 200,
      message: 'success',
      data: {
        task_id: '0f647527-12bd-48b1-b813-111111111',
        model: 'Qubico/flux1-dev',
        task_type: 'txt2img',
        status: '',
        input: {},
        output: {},
        meta: {},
        logs: [],
        error: { code: 1100, message: '' },
      },
    },
    expected: { id: '0f647527-12bd-48b1-b813-111111111', status: 'pending', outputs: [] },
  },
  {
    kind: 'task',
    name: 'flux img2img create, pending',
    source: 'https://piapi.ai/docs/flux-api/image-to-image',
    note: 'the input echoed with zeros for what was not sent; usage type "quota"; output null',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        task_id: '1631d053-2352-4add-95cc-360fc52d5f89',
        model: 'Qubico/flux1-schnell',
        task_type: 'img2img',
        status: 'pending',
        config: { webhook_config: { endpoint: 'https://webhook.site/xxxx', secret: '' } },
        input: {
          prompt: 'a bear',
          negative_prompt: '',
          image: 'https://i.ibb.co/J7ZNgSG/01.jpg',
          width: 0,
          height: 0,
          steps: 0,
        },
        output: null,
        meta: {
          created_at: '2024-09-25T07:40:08.333962391Z',
          started_at: '0001-01-01T00:00:00Z',
          ended_at: '0001-01-01T00:00:00Z',
          usage: { type: 'quota', frozen: 0, consume: 20000 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: [],
        error: NO_ERROR,
      },
      message: 'success',
    },
    expected: { id: '1631d053-2352-4add-95cc-360fc52d5f89', status: 'pending', outputs: [] },
  },
  {
    kind: 'task',
    name: 'flux txt2img fetch, completed with image_urls and an empty image_base64',
    source: `${NOTES} image_url + image_urls for several images, image_base64: "")`,
    note: 'written from the notes; the second picture is listed once though image_url repeats the first',
    httpStatus: 200,
    body: completed('5d1e2c3b-4a59-4e68-8f70-9a0b1c2d3e4f', 'Qubico/flux1-schnell', 'txt2img', {
      image_url: 'https://img.theapi.app/temp/6a2b1c9e-0d3f-4e5a-8b7c-1d2e3f4a5b6c.png',
      image_urls: [
        'https://img.theapi.app/temp/6a2b1c9e-0d3f-4e5a-8b7c-1d2e3f4a5b6c.png',
        'https://img.theapi.app/temp/7b3c2d0f-1e4a-4f6b-9c8d-2e3f4a5b6c7d.png',
      ],
      image_base64: '',
    }),
    expected: {
      id: '5d1e2c3b-4a59-4e68-8f70-9a0b1c2d3e4f',
      status: 'completed',
      outputs: [
        { kind: 'image', url: 'https://img.theapi.app/temp/6a2b1c9e-0d3f-4e5a-8b7c-1d2e3f4a5b6c.png' },
        { kind: 'image', url: 'https://img.theapi.app/temp/7b3c2d0f-1e4a-4f6b-9c8d-2e3f4a5b6c7d.png' },
      ],
    },
  },
  {
    kind: 'task',
    name: 'hunyuan fast-txt2video fetch, completed',
    source: `${NOTES} video generation: output video_url, an MP4)`,
    note: 'written from the notes on the hosted record',
    httpStatus: 200,
    body: completed('a4c1e9d2-7b3f-4a8e-9c6d-5e2f1a0b3c4d', 'Qubico/hunyuan', 'fast-txt2video', {
      video_url: 'https://img.theapi.app/temp/0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e5f.mp4',
    }),
    expected: {
      id: 'a4c1e9d2-7b3f-4a8e-9c6d-5e2f1a0b3c4d',
      status: 'completed',
      outputs: [
        { kind: 'video', url: 'https://img.theapi.app/temp/0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e5f.mp4' },
      ],
    },
  },
  {
    kind: 'task',
    name: 'video-toolkit face-swap fetch, completed',
    source: `${NOTES} video-toolkit face-swap: output video_url)`,
    note: 'written from the notes on the hosted record',
    httpStatus: 200,
    body: completed('b5d2f0e3-8c4a-4b9f-8d7e-6f3a2b1c4d5e', 'Qubico/video-toolkit', 'face-swap', {
      video_url: 'https://img.theapi.app/temp/1d0e9f8a-7b6c-4d5e-3f2a-1b0c9d8e7f6a.mp4',
    }),
    expected: {
      id: 'b5d2f0e3-8c4a-4b9f-8d7e-6f3a2b1c4d5e',
      status: 'completed',
      outputs: [
        { kind: 'video', url: 'https://img.theapi.app/temp/1d0e9f8a-7b6c-4d5e-3f2a-1b0c9d8e7f6a.mp4' },
      ],
    },
  },
  {
    kind: 'task',
    name: 'trellis text-to-3d create, pending',
    source: 'https://piapi.ai/docs/trellis-api/create-task',
    note: 'the input echoed with image "", images null and seed 0; usage type "llm" with 400,000 points ($0.04)',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        task_id: '97cb9075-dca9-4c15-ad94-a333ae96d1de',
        model: 'Qubico/trellis',
        task_type: 'text-to-3d',
        status: 'pending',
        config: {
          service_mode: '',
          webhook_config: {
            endpoint: 'https://webhook.site/3101de1a-6e2e-451c-8538-efd5875888d7',
            secret: '',
          },
        },
        input: {
          prompt: 'a bear',
          image: '',
          images: null,
          ss_sampling_steps: 7,
          slat_sampling_steps: 7,
          ss_guidance_strength: 7.5,
          slat_guidance_strength: 3,
          seed: 0,
        },
        output: null,
        meta: {
          created_at: '2025-11-26T08:17:30.677144106Z',
          started_at: '0001-01-01T00:00:00Z',
          ended_at: '0001-01-01T00:00:00Z',
          usage: { type: 'llm', frozen: 0, consume: 400000 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: [],
        error: NO_ERROR,
      },
      message: 'success',
    },
    expected: { id: '97cb9075-dca9-4c15-ad94-a333ae96d1de', status: 'pending', outputs: [] },
  },
  {
    kind: 'task',
    name: 'trellis image-to-3d fetch, processing, outputs empty strings',
    source: `${NOTES} output fields may be "" until the task ends)`,
    note: 'written from the notes: the three fields present and empty; none is a result',
    httpStatus: 200,
    body: completed(
      'c6e3a1f4-9d5b-4c0a-9e8f-7a4b3c2d5e6f',
      'Qubico/trellis',
      'image-to-3d',
      { model_file: '', combined_video: '', no_background_image: '' },
      'processing',
    ),
    expected: { id: 'c6e3a1f4-9d5b-4c0a-9e8f-7a4b3c2d5e6f', status: 'processing', outputs: [] },
  },
  {
    kind: 'task',
    name: 'trellis image-to-3d fetch, completed: model_file, combined_video, no_background_image',
    source: `${NOTES} trellis: model_file .glb, combined_video .mp4, no_background_image .png, without _url)`,
    note: 'written from the notes: three output fields without the _url suffix',
    httpStatus: 200,
    body: completed('d7f4b2a5-0e6c-4d1b-8f9a-8b5c4d3e6f7a', 'Qubico/trellis', 'image-to-3d', {
      model_file: 'https://img.theapi.app/temp/2e1f0a9b-8c7d-4e6f-5a4b-3c2d1e0f9a8b.glb',
      combined_video: 'https://img.theapi.app/temp/3f2a1b0c-9d8e-4f7a-6b5c-4d3e2f1a0b9c.mp4',
      no_background_image: 'https://img.theapi.app/temp/4a3b2c1d-0e9f-4a8b-7c6d-5e4f3a2b1c0d.png',
    }),
    expected: {
      id: 'd7f4b2a5-0e6c-4d1b-8f9a-8b5c4d3e6f7a',
      status: 'completed',
      outputs: [
        { kind: '3d', url: 'https://img.theapi.app/temp/2e1f0a9b-8c7d-4e6f-5a4b-3c2d1e0f9a8b.glb' },
        { kind: 'video', url: 'https://img.theapi.app/temp/3f2a1b0c-9d8e-4f7a-6b5c-4d3e2f1a0b9c.mp4' },
        { kind: 'image', url: 'https://img.theapi.app/temp/4a3b2c1d-0e9f-4a8b-7c6d-5e4f3a2b1c0d.png' },
      ],
    },
  },
  {
    kind: 'task',
    name: 'trellis2 image-to-3d create, pending',
    source: 'https://piapi.ai/docs/trellis2-api/create-task',
    note: 'usage 1,000,000 points ($0.10 at 1e-7 USD a point); started and ended the zero time',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        task_id: '6bf192a8-d17a-4c43-b709-176b9ca0e42c',
        model: 'Qubico/trellis2',
        task_type: 'image-to-3d',
        status: 'pending',
        config: {
          service_mode: '',
          webhook_config: {
            endpoint: 'https://webhook.site/7362635a-d773-474d-a906-c030dff1d40e',
            secret: '',
          },
        },
        input: { image: 'https://i.ibb.co/kgz3ZhwY/e053f0e939da.jpg', seed: 0 },
        output: null,
        meta: {
          created_at: '2025-12-31T01:03:36.642788022Z',
          started_at: '0001-01-01T00:00:00Z',
          ended_at: '0001-01-01T00:00:00Z',
          usage: { type: 'llm', frozen: 0, consume: 1000000 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: [],
        error: NO_ERROR,
      },
      message: 'success',
    },
    expected: { id: '6bf192a8-d17a-4c43-b709-176b9ca0e42c', status: 'pending', outputs: [] },
  },
  {
    kind: 'task',
    name: 'pixal3d image-to-3d, completed with model_file',
    source: 'https://piapi.ai/docs/pixal-3d-api/create-task',
    note: 'the docs\' {timestamp, data} example: output {model_file: "….glb"}, no _url suffix',
    httpStatus: 200,
    body: {
      timestamp: 1781269265,
      data: {
        task_id: 'bb9dec98-bd5f-49f6-a58d-5b49d8fb9e7b',
        model: 'Qubico/pixal3d',
        task_type: 'image-to-3d',
        status: 'completed',
        config: {
          service_mode: '',
          webhook_config: {
            endpoint: 'https://webhook.site/7362635a-d773-474d-a906-c030dff1d40e',
            secret: '',
          },
        },
        input: { image: 'https://i.ibb.co/kgz3ZhwY/e053f0e939da.jpg', seed: 0 },
        output: { model_file: 'https://img.theapi.app/temp/b8c351a5-3895-491d-a9de-5c886b2e8c8b.glb' },
        meta: {
          created_at: '2026-06-12T12:56:49.129031421Z',
          started_at: '2026-06-12T12:56:50.569355443Z',
          ended_at: '2026-06-12T13:01:05.823776209Z',
          usage: { type: 'point', frozen: 0, consume: 2500000 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: [],
        error: NO_ERROR,
      },
    },
    expected: {
      id: 'bb9dec98-bd5f-49f6-a58d-5b49d8fb9e7b',
      status: 'completed',
      outputs: [{ kind: '3d', url: 'https://img.theapi.app/temp/b8c351a5-3895-491d-a9de-5c886b2e8c8b.glb' }],
    },
  },
  {
    kind: 'task',
    name: 'kling video, completed: the result deep under output.works',
    source: `${NOTES} models without a vendor prefix use output.works[].video.resource_without_watermark)`,
    note: 'written from the notes: no field the app names holds the result; the last pass takes every http(s) address under output',
    httpStatus: 200,
    body: completed('e8a5c3b6-1f7d-4e2c-9a0b-9c6d5e4f7a8b', 'kling', 'video_generation', {
      type: 'm2v_txt2video',
      status: 99,
      works: [
        {
          status: 99,
          type: 'm2v_txt2video',
          cover: {
            resource: 'https://storage.example-cdn.com/kling/cover-5f6a.jpg',
            height: 720,
            width: 1280,
          },
          video: {
            resource: 'https://storage.example-cdn.com/kling/video-5f6a-watermarked.mp4',
            resource_without_watermark: 'https://storage.example-cdn.com/kling/video-5f6a.mp4',
            height: 720,
            width: 1280,
            duration: 5100,
          },
        },
      ],
    }),
    expected: {
      id: 'e8a5c3b6-1f7d-4e2c-9a0b-9c6d5e4f7a8b',
      status: 'completed',
      outputs: [
        { kind: 'image', url: 'https://storage.example-cdn.com/kling/cover-5f6a.jpg' },
        { kind: 'video', url: 'https://storage.example-cdn.com/kling/video-5f6a-watermarked.mp4' },
        { kind: 'video', url: 'https://storage.example-cdn.com/kling/video-5f6a.mp4' },
      ],
    },
  },
];

/**
 * Answers of the real hosted service (PiAPI, vendor `Qubico`), copied as their sources show
 * them: the vendor's public documentation and public client code. Long prompts are shortened;
 * every field and every null is kept. Where no public example of a shape the field notes
 * describe could be found, the entry says `field notes (…)` and is written from them.
 *
 * `task` entries must normalise; `error` entries must map to the named error class and quote
 * the service; `account` and `upload` entries are data for the tests of those operations.
 * The refusals, the account and upload answers and the entry types: real-answers-refusals.ts.
 */

import { FAMILY_ANSWERS } from './real-answers-families.ts';
import {
  type ErrorAnswer,
  OTHER_ANSWERS,
  type RealAnswer,
  type TaskAnswer,
} from './real-answers-refusals.ts';

export type {
  DataAnswer,
  ErrorAnswer,
  ExpectedOutput,
  RealAnswer,
  RefusalClass,
  TaskAnswer,
} from './real-answers-refusals.ts';

const NO_ERROR = { code: 0, raw_message: '', message: '', detail: null };
const NO_WEBHOOK = { endpoint: '', secret: '' };

const TASK_ANSWERS: readonly TaskAnswer[] = [
  {
    kind: 'task',
    name: 'ace-step fetch, completed',
    source: 'https://piapi.ai/docs/ace-step-api/get-task',
    note: 'form A with timestamp and no code; times with microseconds and +08:00; usage type "llm"',
    httpStatus: 200,
    body: {
      timestamp: 1749613445,
      data: {
        task_id: 'f8d11a53-f3ac-47ad-a4d6-7610fda830be',
        model: 'Qubico/ace-step',
        task_type: 'txt2audio',
        status: 'completed',
        config: { service_mode: '', webhook_config: NO_WEBHOOK },
        input: {
          duration: 10,
          lyrics: '[inst]',
          negative_style_prompt: '',
          style_audio: '',
          style_prompt: 'guitar and piano',
        },
        output: { audio_url: 'https://img.theapi.app/temp/2c802652-03bb-4266-8d4b-1cd81da45dcb.mp3' },
        meta: {
          created_at: '2025-06-11T11:43:31.673594+08:00',
          started_at: '2025-06-11T11:43:32.473551+08:00',
          ended_at: '2025-06-11T11:44:05.72226+08:00',
          usage: { type: 'llm', frozen: 0, consume: 5000 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: [],
        error: NO_ERROR,
      },
    },
    expected: {
      id: 'f8d11a53-f3ac-47ad-a4d6-7610fda830be',
      status: 'completed',
      outputs: [
        { kind: 'audio', url: 'https://img.theapi.app/temp/2c802652-03bb-4266-8d4b-1cd81da45dcb.mp3' },
      ],
    },
  },
  {
    kind: 'task',
    name: 'face-swap create, pending',
    source: 'https://piapi.ai/docs/faceswap-api/create-task',
    note: 'output null, meta {}, input {}, config without service_mode',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        task_id: '90efd2db-bcfc-413f-a0be-c893850c9d68',
        model: 'Qubico/image-toolkit',
        task_type: 'face-swap',
        status: 'pending',
        config: { webhook_config: NO_WEBHOOK },
        input: {},
        output: null,
        meta: {},
        detail: null,
        logs: [],
        error: NO_ERROR,
      },
      message: 'success',
    },
    expected: { id: '90efd2db-bcfc-413f-a0be-c893850c9d68', status: 'pending', outputs: [] },
  },
  {
    kind: 'task',
    name: 'video-toolkit background-remove create, pending',
    source: 'https://piapi.ai/docs/tools/video-remove-background-api',
    note: 'started_at and ended_at are the zero time 0001-01-01T00:00:00Z ("not yet"); usage frozen up front',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        task_id: 'ef501094-2039-402d-95cb-2e43af39fa03',
        model: 'Qubico/video-toolkit',
        task_type: 'background-remove',
        status: 'pending',
        config: {
          service_mode: '',
          webhook_config: {
            endpoint: 'https://webhook.site/8ed66cc5-8c97-4926-a452-08aed4b450a5',
            secret: '',
          },
        },
        input: {
          video: 'https://storage.theapi.app/images/playground/20250725/bf82h5de80b.mp4',
          invert_output: false,
        },
        output: null,
        meta: {
          created_at: '2025-07-25T22:41:18.465048+08:00',
          started_at: '0001-01-01T00:00:00Z',
          ended_at: '0001-01-01T00:00:00Z',
          usage: { type: 'llm', frozen: 0, consume: 280000 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: [],
        error: NO_ERROR,
      },
      message: 'success',
    },
    expected: { id: 'ef501094-2039-402d-95cb-2e43af39fa03', status: 'pending', outputs: [] },
  },
  {
    kind: 'task',
    name: 'sora2 fetch, completed',
    source: 'https://piapi.ai/docs/sora2-api/get-task',
    note: 'the output field is `video` (no _url suffix); times with nanoseconds (prompt shortened)',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        task_id: '4eba5893-2a39-4218-b5aa-bb9f3c4a26b2',
        model: 'sora2',
        task_type: 'sora2-video',
        status: 'completed',
        config: {
          service_mode: '',
          webhook_config: {
            endpoint: 'https://webhook.site/74ff2ef5-7120-493c-a0ff-123e2554e754',
            secret: '',
          },
        },
        input: {
          aspect_ratio: '16:9',
          duration: 4,
          prompt: 'A casual street interview on a busy New York City sidewalk…',
        },
        output: { video: 'https://img.theapi.app/ephemeral/6147ebfc-fe47-4184-8ce4-66ffe37049eb.mp4' },
        meta: {
          created_at: '2025-10-29T02:33:03.28237536Z',
          started_at: '2025-10-29T02:33:03.727698179Z',
          ended_at: '2025-10-29T02:34:35.037379362Z',
          usage: { type: 'llm', frozen: 0, consume: 3200000 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: [],
        error: NO_ERROR,
      },
      message: 'success',
    },
    expected: {
      id: '4eba5893-2a39-4218-b5aa-bb9f3c4a26b2',
      status: 'completed',
      outputs: [
        { kind: 'video', url: 'https://img.theapi.app/ephemeral/6147ebfc-fe47-4184-8ce4-66ffe37049eb.mp4' },
      ],
    },
  },
  {
    kind: 'task',
    name: 'luma video, {timestamp, data} as a webhook delivers it',
    source: 'https://piapi.ai/docs/dream-machine/get-video',
    note: 'webhook envelope {timestamp, data}; logs null; the video is an object {url, width, height}',
    httpStatus: 200,
    body: {
      timestamp: 1767749959,
      data: {
        task_id: 'f38e2944-a5fe-44b4-9464-920c94276d74',
        model: 'luma',
        task_type: 'video_generation',
        status: 'completed',
        config: {
          service_mode: '',
          webhook_config: {
            endpoint: 'https://webhook.site/ce576103-6cd3-43a6-8aac-c8f0dc13adc0',
            secret: '',
          },
        },
        input: { aspect_ratio: '4:3', duration: 5, model_name: 'ray-v2', prompt: 'Fly fishing' },
        output: {
          prompt: 'Fly fishing',
          internal_state: 'completed',
          created_at: '2026-01-07T01:36:13.128Z',
          video: {
            url: 'https://storage.cdn-luma.com/dream-machine/d76fbe61/ee563707/2026-01-07T01-36-13_fly_fishing_watermarked.mp4',
            width: 1152,
            height: 864,
          },
          video_raw: {
            url: 'https://storage.cdn-luma.com/dream-machine/d76fbe61/73e682ad/2026-01-07T01-36-13_fly_fishing.mp4',
            width: 1152,
            height: 864,
          },
          thumbnail: {
            url: 'https://imagedelivery.net/1KomXrSWiTojGGip43n0SQ/5cc04988-7aaf-416d-f9a3-6fc73c789b00/public',
            width: 1152,
            height: 864,
          },
          last_frame: {
            url: 'https://storage.cdn-luma.com/dream-machine/d76fbe61/8c6372b7/2026-01-07T01-36-13_fly_fishing_last_frame.jpg',
            width: 1152,
            height: 864,
          },
        },
        meta: {
          created_at: '2026-01-07T01:36:08.845623268Z',
          started_at: '2026-01-07T01:36:09.916531685Z',
          ended_at: '2026-01-07T01:39:19.64761255Z',
          usage: { type: 'point', frozen: 2000000, consume: 2000000 },
          is_using_private_pool: false,
          failover_triggered: false,
        },
        detail: null,
        logs: null,
        error: NO_ERROR,
      },
    },
    expected: {
      id: 'f38e2944-a5fe-44b4-9464-920c94276d74',
      status: 'completed',
      outputs: [
        {
          kind: 'video',
          url: 'https://storage.cdn-luma.com/dream-machine/d76fbe61/ee563707/2026-01-07T01-36-13_fly_fishing_watermarked.mp4',
        },
      ],
    },
  },
  {
    kind: 'task',
    name: 'unified schema example, capitalised status and code 0',
    source: 'https://piapi.ai/docs/3395213d0',
    note: 'the documented schema: status "Completed", code 0, error without raw_message, logs [{}]',
    httpStatus: 200,
    body: {
      code: 0,
      data: {
        task_id: 'string',
        model: 'string',
        task_type: 'string',
        status: 'Completed',
        input: {},
        output: {},
        meta: {
          created_at: 'string',
          started_at: 'string',
          ended_at: 'string',
          usage: { type: 'string', frozen: 0, consume: 0 },
          is_using_private_pool: true,
        },
        detail: null,
        logs: [{}],
        error: { code: 0, message: 'string' },
      },
      message: 'string',
    },
    expected: { id: 'string', status: 'completed', outputs: [] },
  },
  {
    kind: 'task',
    name: 'music-u create, pending, logs null',
    source: 'simplysparsh/BabyMusic-AI:docs/udio_api.md',
    note: 'a client\'s "verified actual API response": logs null, songs null, zero times, a placeholder created_at',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        task_id: 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx',
        model: 'music-u',
        task_type: 'generate_music',
        status: 'pending',
        config: {
          service_mode: '',
          webhook_config: { endpoint: 'https://example.com/test-webhook', secret: '********' },
        },
        input: {
          gpt_description_prompt: 'A simple test song description...',
          lyrics_type: 'generate',
          negative_tags: '',
          seed: -1,
          title: 'API Response Test Song',
        },
        output: { generation_id: '', songs: null },
        meta: {
          created_at: 'YYYY-MM-DDTHH:mm:ss.sssssssssZ',
          started_at: '0001-01-01T00:00:00Z',
          ended_at: '0001-01-01T00:00:00Z',
          usage: { type: 'point', frozen: 500000, consume: 0 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: null,
        error: NO_ERROR,
      },
      message: 'success',
    },
    expected: { id: 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx', status: 'pending', outputs: [] },
  },
  {
    kind: 'task',
    name: 'music-u failed, in an answer with code 500',
    source: 'keef75/Nova-ACE:debug_response.py',
    note: 'body code 500 but a task record (status failed, input null, logs null): read as the task',
    httpStatus: 200,
    body: {
      code: 500,
      data: {
        task_id: '805b1994-5560-4026-a6db-cf2ce871f302',
        model: 'music-u',
        task_type: 'generate_music',
        status: 'failed',
        config: { service_mode: '', webhook_config: NO_WEBHOOK },
        input: null,
        output: { generation_id: '', songs: null },
        meta: {
          created_at: '2025-08-25T08:08:51.833705018Z',
          started_at: '0001-01-01T00:00:00Z',
          ended_at: '2025-08-25T08:08:51.845642907Z',
          usage: { type: '', frozen: 500000, consume: 0 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: null,
        error: {
          code: 10000,
          raw_message:
            'failed to freeze account point quota: account point quota not enough; account credit not enough',
          message: 'failed to pre-process task runtime',
          detail: null,
        },
      },
      message: 'failed to pre-process task runtime',
    },
    expected: { id: '805b1994-5560-4026-a6db-cf2ce871f302', status: 'failed', outputs: [] },
  },
  {
    kind: 'task',
    name: 'ace-step fetch, processing, ended_at null',
    source: 'field notes (Nulls: a recorded processing record has "ended_at": null; logs: null, error: null)',
    note: 'written from the field notes on the shape of the ace-step record above',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        task_id: '5a8e1b7c-2f4d-4c3a-9e6b-0d1f2a3b4c5d',
        model: 'Qubico/ace-step',
        task_type: 'txt2audio',
        status: 'processing',
        config: { service_mode: '', webhook_config: NO_WEBHOOK },
        input: { duration: 30, lyrics: '[inst]', style_prompt: 'lo-fi piano' },
        output: null,
        meta: {
          created_at: '2025-06-11T11:43:31.673594+08:00',
          started_at: '2025-06-11T11:43:32.473551+08:00',
          ended_at: null,
          usage: { type: 'llm', frozen: 15000, consume: 0 },
          is_using_private_pool: false,
        },
        detail: null,
        logs: null,
        error: null,
      },
      message: 'success',
    },
    expected: { id: '5a8e1b7c-2f4d-4c3a-9e6b-0d1f2a3b4c5d', status: 'processing', outputs: [] },
  },
  {
    kind: 'task',
    name: 'face-swap fetch, completed',
    source:
      'field notes (Outputs: image-toolkit answers output.image_url; clients read data.output.image_url)',
    note: 'no complete public example of a finished face swap was found; the envelope is the create example above',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        task_id: '90efd2db-bcfc-413f-a0be-c893850c9d68',
        model: 'Qubico/image-toolkit',
        task_type: 'face-swap',
        status: 'Completed',
        config: { webhook_config: NO_WEBHOOK },
        input: {},
        output: { image_url: 'https://img.theapi.app/temp/30dda8f7-54b9-4f76-89ff-2d26113878d2.png' },
        meta: {},
        detail: null,
        logs: [],
        error: NO_ERROR,
      },
      message: 'success',
    },
    expected: {
      id: '90efd2db-bcfc-413f-a0be-c893850c9d68',
      status: 'completed',
      outputs: [
        { kind: 'image', url: 'https://img.theapi.app/temp/30dda8f7-54b9-4f76-89ff-2d26113878d2.png' },
      ],
    },
  },
  {
    kind: 'task',
    name: 'image-edit create (2.7)',
    source: "field notes (Models: Qubico/qwen-image, task type image-edit; the spec's 2.7 answer)",
    note: "no public example of this answer was found; the shape is the spec's {task_id, status, created_at}",
    httpStatus: 200,
    body: {
      task_id: 'c1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      status: 'pending',
      created_at: '2025-09-01T08:00:00Z',
    },
    expected: { id: 'c1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d4e5f', status: 'pending', outputs: [] },
  },
];

/** Every answer of the corpus: task records, then refusals and the account and upload answers. */
export const REAL_ANSWERS: readonly RealAnswer[] = [...TASK_ANSWERS, ...FAMILY_ANSWERS, ...OTHER_ANSWERS];

export function taskAnswers(): TaskAnswer[] {
  return REAL_ANSWERS.filter((a): a is TaskAnswer => a.kind === 'task');
}

export function errorAnswers(): ErrorAnswer[] {
  return REAL_ANSWERS.filter((a): a is ErrorAnswer => a.kind === 'error');
}

/** A deep copy of an answer's body, so a test may change it. */
export function bodyOf(answer: RealAnswer): unknown {
  return structuredClone(answer.body);
}

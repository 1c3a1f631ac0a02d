/**
 * Realistic service answers written from the spec's tables (2.5 - 2.8) and the field notes.
 * Each is a function so a test can change its copy freely.
 */

/** 4.1 txt2audio create: form A with timestamp, completed, output.audio_url. */
export function audioCreateFormA() {
  return {
    timestamp: 1_745_000_123,
    data: {
      task_id: '3f0c8a2e-8c1b-4d51-9f0a-5a3c2b1d7e90',
      model: 'service/ace-step',
      task_type: 'txt2audio',
      status: 'completed',
      config: { service_mode: '', webhook_config: { endpoint: '', secret: '' } },
      input: {
        style_prompt: 'lo-fi hip hop, mellow piano, vinyl crackle',
        negative_style_prompt: 'distorted vocals',
        lyrics: '[verse]\nRain on the window\n[chorus]\nStay a while',
        duration: 30,
        style_audio: '',
      },
      output: { audio_url: 'https://cdn.example.test/audio/3f0c8a2e.mp3' },
      meta: {
        created_at: '2025-04-18T10:15:20.123456+00:00',
        started_at: '2025-04-18T10:15:22Z',
        ended_at: '2025-04-18T10:16:01Z',
        usage: { type: 'point', frozen: 0, consume: 150000 },
        is_using_private_pool: false,
      },
      detail: null,
      logs: [],
      error: { code: 0, raw_message: '', message: '', detail: null },
    },
  };
}

/** 4.1 face-swap create: form A with code/message, pending, output null, meta and input empty. */
export function faceSwapCreateFormA() {
  return {
    code: 200,
    message: 'success',
    data: {
      task_id: 'a1b2c3d4-0000-4000-8000-000000000001',
      model: 'service/image-toolkit',
      task_type: 'face-swap',
      status: 'pending',
      config: {
        service_mode: 'public',
        webhook_config: { endpoint: 'https://hooks.example.test/t', secret: 's3' },
      },
      input: {},
      output: null,
      meta: {},
      detail: null,
      logs: [],
      error: { code: 0, raw_message: '', message: '', detail: null },
    },
  };
}

/** 2.6 video fetch: form B. */
export function videoFetchFormB() {
  return {
    code: 200,
    message: 'success',
    data: {
      task_id: 'b7e6d5c4-1111-4111-8111-111111111111',
      status: 'completed',
      output: { video_url: 'https://cdn.example.test/video/b7e6d5c4.mp4' },
    },
  };
}

/** 2.7 image-edit create: no envelope. */
export function imageEditCreate() {
  return {
    task_id: 'c0ffee00-2222-4222-8222-222222222222',
    status: 'pending',
    created_at: '2025-04-18T10:20:00Z',
  };
}

function taskInfo() {
  return {
    arguments: [
      { name: 'prompt', value: 'a lighthouse at dusk' },
      { name: 'steps', value: '30' },
    ],
    inputs: [
      {
        inputType: 'image',
        name: 'image1',
        url: 'https://cdn.example.test/in/1.png',
        blobStorage: null,
        token: null,
      },
    ],
    type: 'txt2img',
  };
}

/** 2.8 detailed record: form C with task and works. */
export function detailedFormC() {
  return {
    code: 200,
    message: 'success',
    data: {
      task_id: 'd00dfeed-3333-4333-8333-333333333333',
      input: '{"prompt":"a lighthouse at dusk","steps":30}',
      status: 'Completed',
      metadata: {
        created_at: '2025-04-18T10:00:00Z',
        started_at: '2025-04-18T10:00:05Z',
        ended_at: '2025-04-18T10:00:25Z',
        quota_frozen: 0,
        quota_usage: 25000,
      },
      task: {
        id: 918273,
        userId: 42,
        type: 'txt2img',
        status: 2,
        taskInfo: taskInfo(),
        favored: false,
        deleted: false,
        createTime: 1_744_970_400,
        updateTime: 1_744_970_425,
      },
      works: [
        {
          workId: 1,
          workItemId: 11,
          taskId: 918273,
          userId: 42,
          type: 'image',
          status: 2,
          contentType: 'image/png',
          resource: {
            resource: 'https://cdn.example.test/works/1.png',
            resourceWithoutWatermark: '',
            height: 1024,
            width: 1024,
            duration: 0,
          },
          cover: { resource: '', height: 0, width: 0, duration: 0 },
          starNum: 0,
          reportNum: 0,
          createTime: 1_744_970_425,
          taskInfo: taskInfo(),
          selfAttitude: '',
          selfComment: { tags: [], content: '' },
          favored: false,
          publishStatus: 'private',
          deleted: false,
        },
        {
          workId: 2,
          workItemId: 12,
          taskId: 918273,
          userId: 42,
          type: 'image',
          status: 2,
          contentType: 'image/png',
          resource: {
            resource: 'https://cdn.example.test/works/2.png',
            resourceWithoutWatermark: '',
            height: 1024,
            width: 1024,
            duration: 0,
          },
          cover: null,
          starNum: 0,
          reportNum: 0,
          createTime: 1_744_970_425,
          taskInfo: null,
          selfAttitude: '',
          selfComment: null,
          favored: false,
          publishStatus: 'private',
          deleted: false,
        },
      ],
    },
  };
}

/** A failed task in form A, as a fetch would return it. */
export function failedFetchFormA() {
  const payload = audioCreateFormA();
  return {
    ...payload,
    data: {
      ...payload.data,
      status: 'failed',
      output: null,
      error: {
        code: 10000,
        raw_message: 'worker crashed: CUDA OOM',
        message: 'generation failed',
        detail: { gpu: 0 },
      },
    },
  };
}

/** All valid payloads, named, for property tests that mutate them. */
export function allValidPayloads(): Record<string, Record<string, unknown>> {
  return {
    audioCreateFormA: audioCreateFormA(),
    faceSwapCreateFormA: faceSwapCreateFormA(),
    videoFetchFormB: videoFetchFormB(),
    imageEditCreate: imageEditCreate(),
    detailedFormC: detailedFormC(),
    failedFetchFormA: failedFetchFormA(),
  };
}

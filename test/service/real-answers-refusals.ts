/**
 * The refusals of the real service (PiAPI), its account and upload answers, and the types of
 * every entry of the corpus in real-answers.ts. Sources as there: the vendor's docs, public
 * client code, or `field notes (…)` when no public example was found.
 */
export interface ExpectedOutput {
  kind: 'audio' | 'image' | 'video' | '3d' | 'file';
  url: string;
}

interface AnswerBase {
  name: string;
  /** Where it was copied from: a URL, or `owner/repo:path`, or `field notes (…)`. */
  source: string;
  note: string;
  /** The HTTP status it comes with (when the source does not say, the one a client would see). */
  httpStatus: number;
  body: unknown;
}

export interface TaskAnswer extends AnswerBase {
  kind: 'task';
  expected: { id: string; status: string; outputs: ExpectedOutput[] };
}

export type RefusalClass = 'UnauthorizedError' | 'PlanRefusedError' | 'BadRequestError' | 'RateLimitedError';

export interface ErrorAnswer extends AnswerBase {
  kind: 'error';
  expected: { errorClass: RefusalClass; quote: string };
}

export interface DataAnswer extends AnswerBase {
  kind: 'account' | 'upload';
}

export type RealAnswer = TaskAnswer | ErrorAnswer | DataAnswer;

export const OTHER_ANSWERS: readonly (ErrorAnswer | DataAnswer)[] = [
  {
    kind: 'error',
    name: 'upload refused, 400',
    source: 'https://piapi.ai/docs/tools/file-upload',
    note: 'the plain {code, message} error body',
    httpStatus: 400,
    body: { code: 400, message: 'Invalid request parameters' },
    expected: { errorClass: 'BadRequestError', quote: 'Invalid request parameters' },
  },
  {
    kind: 'error',
    name: 'upload refused by the plan, 403',
    source: 'https://piapi.ai/docs/tools/file-upload',
    note: 'a 403 is the plan, not the key',
    httpStatus: 403,
    body: { code: 403, message: 'Insufficient plan level' },
    expected: { errorClass: 'PlanRefusedError', quote: 'Insufficient plan level' },
  },
  {
    kind: 'error',
    name: 'plan refusal inside an HTTP 200',
    source: 'field notes (Error bodies: several clients check body.code !== 200 on HTTP 200 answers)',
    note: 'the documented 403 body, answered with HTTP 200 and no task',
    httpStatus: 200,
    body: { code: 403, message: 'Insufficient plan level' },
    expected: { errorClass: 'PlanRefusedError', quote: 'Insufficient plan level' },
  },
  {
    kind: 'error',
    name: 'bad request inside an HTTP 200, {code, data: null, message}',
    source: 'field notes (Error bodies: {code, data: null, message})',
    note: 'a refusal in the body of a 200, with data null',
    httpStatus: 200,
    body: { code: 400, data: null, message: 'Invalid request parameters' },
    expected: { errorClass: 'BadRequestError', quote: 'Invalid request parameters' },
  },
  {
    kind: 'error',
    name: 'unknown key, 401',
    source:
      'field notes (Error bodies: {code, data: null, message}; the spec lists 401 for fetch and create)',
    note: 'no public example of the 401 body was found; its message here is illustrative',
    httpStatus: 401,
    body: { code: 401, data: null, message: 'Unauthorized' },
    expected: { errorClass: 'UnauthorizedError', quote: 'Unauthorized' },
  },
  {
    kind: 'error',
    name: 'server failure code inside an HTTP 200, no task',
    source: 'field notes (Error bodies) with the message of keef75/Nova-ACE:debug_response.py',
    note: 'code 500 in the body and no task: nothing was created, so it is a refusal, not a lost answer',
    httpStatus: 200,
    body: { code: 500, data: null, message: 'failed to pre-process task runtime' },
    expected: { errorClass: 'BadRequestError', quote: 'failed to pre-process task runtime' },
  },
  {
    kind: 'account',
    name: 'account info',
    source:
      'field notes (Account) and https://doc.qubico.ai/account-management/account-info (names account_name, account_id, credits, equivalent_in_usd)',
    note: 'GET https://api.piapi.ai/account/info; the values are illustrative, the page shows no example values',
    httpStatus: 200,
    body: {
      code: 200,
      data: {
        account_name: 'studio@example.com',
        account_id: 1234,
        credits: 2500000,
        equivalent_in_usd: 2.5,
      },
      message: 'success',
    },
  },
  {
    kind: 'upload',
    name: 'ephemeral upload, success',
    source: 'https://piapi.ai/docs/tools/file-upload',
    note: 'POST https://upload.theapi.app/api/ephemeral_resource; the file lives 24 h',
    httpStatus: 200,
    body: { code: 200, data: { url: 'https://example.com/example.png' }, message: 'success' },
  },
];

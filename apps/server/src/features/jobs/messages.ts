import { JOB_SIGN_IN_MESSAGE } from '@parla/contract';
import { MAX_DOCUMENT_BYTES } from './documents.js';

/** What the job routes answer, word for word. */
export const JOB_MESSAGES = {
  signInNeeded: JOB_SIGN_IN_MESSAGE,
  paidPlanNeeded:
    'Jobs are part of the paid plans: choose BASIC, PREMIUM or BUSINESS to convert documents.',
  documentMissing: 'Attach the document in the multipart field "document".',
  tooLarge: `The document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB.`,
  overPlan: (characters: number, limit: number, plan: string) =>
    `This job has ${characters.toLocaleString('en-US')} characters; the ${plan} plan allows ${limit.toLocaleString('en-US')} per job.`,
  notEnough: (characters: number, left: number) =>
    `This job needs ${characters.toLocaleString('en-US')} characters and ${left.toLocaleString('en-US')} remain on your plan.`,
  badChapters: (count: number) =>
    `chapters must list chapters of the document by index, from 0 to ${count - 1}, each once.`,
  tooManyActive: (limit: number, plan: string) =>
    `You have ${limit} jobs queued or running, as many as the ${plan} plan allows at once; wait for one to finish or cancel one.`,
  readersBusy:
    'The server is reading as many documents as it can; send yours again in a few seconds.',
  readingOne: 'A document of yours is being read; send the next once it is (one at a time).',
  notFound: 'No such job.',
  notDone: 'The job has no audio yet.',
  deleted: 'The job and its audio are deleted.',
};

/** A request refused: the status and the message it is answered with. */
export interface Refusal {
  ok: false;
  status: number;
  message: string;
}

export const refuse = (status: number, message: string): Refusal => ({
  ok: false,
  status,
  message,
});

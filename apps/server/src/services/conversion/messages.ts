/** The conversion's own answers (SPEC §7's `message` of POST /api/convertor). */
export const CONVERT_MESSAGES = {
  converted: 'Your audio is ready.',
  tooLong: (characters: number, limit: number) =>
    `This text has ${characters} characters; your plan converts at most ${limit} at a time.`,
  noCharactersLeft: (remaining: number) =>
    `You have ${remaining} characters left, not enough for this text. You can purchase more characters!`,
  failed: 'The conversion failed on our side. Please try again.',
  gone: 'This audio has expired. Please convert the text again.',
} as const;

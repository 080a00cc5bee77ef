import { SAVED_FILE_RETENTION_DAYS } from './constants.js';

/**
 * Every validation message and alert of SPEC.md §2, §4, §5 and §8, word for word: the typos
 * ('Incorect', 'Faield'), the missing spaces ('successfully!Go') and the trailing space of
 * 'Failed save billing settings! ' are the product's wording and are kept on purpose.
 *
 * A few messages SPEC implies but does not spell out (it says "at least 6 characters" for
 * the confirm fields, "message required", "the terms agreement checked"); they are written in
 * the same pattern as their siblings and marked "not worded in SPEC" below. Messages for
 * rules that are ours (the server refusing an illegal engine/effect combination) live beside
 * the rule (`sample-rate.ts`, `convertor.ts`), not here.
 */
export const MESSAGES = {
  auth: {
    emailRequired: 'Email address is required.',
    emailInvalid: 'Incorect email address.',
    passwordRequired: 'Password is required.',
    passwordMin: 'Password must be at least 6 characters long.',
    confirmPasswordRequired: 'Confirm password is required.',
    /** Not worded in SPEC ("at least 6 characters"); same pattern as `passwordMin`. */
    confirmPasswordMin: 'Confirm password must be at least 6 characters long.',
    confirmPasswordMatch: 'Confirm password must match.',
    /** Not worded in SPEC (the submit button is disabled while unchecked). */
    agreementRequired: 'You must agree to the terms of services and privacy policy.',
    loginFailed: 'Failed login!',
    registerSuccess: 'Register successfully!Go to login page!',
    registerFailed: 'Failed register!',
    forgottenPasswordSuccess: 'Email sent successfully!',
    forgottenPasswordFailed: 'Email sent unsuccessfully!',
    resetPasswordSuccess: 'Password changed successfully!Go to login page!',
    resetPasswordFailed: 'Failed change password!',
  },
  /** The email-validation page and the login page's "not validated" notice (SPEC §2). */
  emailValidation: {
    heading: 'Email address validation',
    waiting:
      'We are validating your email address. If validation is successful you will be automatically redirected to your account.',
    patience: 'Please be patient ...',
    failed:
      'Could not validate your email address. Maybe the link has expired. Please try again to login. If the error persists then contact us.',
  },
  account: {
    changeEmailSuccess: 'Email changed successfully!',
    changePasswordSuccess: 'Password changed successfully!',
    oldPasswordRequired: 'Old password is required.',
    /** Not worded in SPEC ("at least 6"); same pattern as `passwordMin`. */
    oldPasswordMin: 'Old password must be at least 6 characters long.',
    newPasswordRequired: 'New password is required.',
    /** Not worded in SPEC ("at least 6"); same pattern as `passwordMin`. */
    newPasswordMin: 'New password must be at least 6 characters long.',
    confirmNewPasswordRequired: 'Confirm new password is required.',
    confirmNewPasswordMatch: 'Confirm new password must match.',
    deleteConfirmRequired: "'DELETE' confirm is required.",
    deleteConfirmMatch: "Value must match with 'DELETE'.",
    deleteFailed: 'Faield to delete account!',
    /** Shown on the account page for an empty profile value (SPEC §3). */
    emptyValue: '-',
  },
  billing: {
    nameRequired: 'Name is required.',
    nameMin: 'Name must be at least 3 characters long.',
    phoneRequired: 'Phone number is required.',
    phoneMin: 'Phone number must be at least 10 characters long.',
    countryRequired: 'Country is required.',
    cityRequired: 'City is required.',
    line1Required: 'Address line 1 is required.',
    taxTypeRequired: 'Tax Type is required.',
    taxCodeRequired: 'Tax code is required.',
    /** Tax code placeholder when the chosen country and type have no example pattern. */
    taxCodePlaceholder: 'VAT code',
    saveSuccess: 'Billing settings saved successfully!',
    /** The trailing space is SPEC's: `saveFailedTaxHint` is appended to it. */
    saveFailed: 'Failed save billing settings! ',
    saveFailedTaxHint: 'You may have entered an incorrect tax code!',
  },
  contact: {
    nameRequired: 'Name is required.',
    nameMin: 'Name must be at least 3 characters long.',
    emailRequired: 'Email is required.',
    emailInvalid: 'Email is incorrect.',
    subjectRequired: 'Subject is required.',
    subjectMin: 'Subject must be at least 3 characters long.',
    /** Not worded in SPEC ("message required"); same pattern as `subjectRequired`. */
    messageRequired: 'Message is required.',
    messageMin: 'Message must be at least 10 characters long.',
    sendSuccess: 'Message sent successfully!',
    sendFailed: 'Failed to send this message!Try again!',
  },
  checkout: {
    nameOnCardRequired: 'Name on card is required.',
    nameOnCardMin: 'Name on card must be at least 10 characters long.',
    paymentSuccess: 'Payment successful! You will receive an invoice in the mail!',
    paymentFailed: 'Payment failed! Try again!',
  },
  editor: {
    /** SPEC's wording, although the pause input itself allows 1 to 10. */
    pauseRange: 'You can enter a pause break rate value between 0 and 9!',
    /**
     * SPEC's literal sentence, covering the three inputs at once. Each dialog shows
     * `rateRangeMessage(kind)` instead; see there.
     */
    rateRange: 'You can enter a speed (volume, pitch) rate value between 0 and 100!',
    notEnoughCharacters:
      'You do not have enough characters to perform this operation. You can purchase more characters!',
  },
  file: {
    deleteConfirm: 'Are you sure you want to delete this file?',
    historyTitle: 'File History',
    historySubtitle: 'Here are your saved files!',
    retentionNotice: `Your files will be deleted after ${SAVED_FILE_RETENTION_DAYS} days!`,
  },
} as const;

export type RateKind = 'speed' | 'volume' | 'pitch';

/**
 * The alert for a speed, volume or pitch rate number above 100.
 *
 * SPEC §5 gives one sentence, 'You can enter a speed (volume, pitch) rate value between 0 and
 * 100!', for three separate number inputs: the parenthesis is the specification folding three
 * alerts into one line, as its "Speed, volume or pitch number above 100 gives …" says. Each
 * dialog therefore names its own input ('You can enter a volume rate value between 0 and
 * 100!'); the literal sentence stays available as `MESSAGES.editor.rateRange` for any place
 * that speaks of the three at once.
 */
export function rateRangeMessage(kind: RateKind): string {
  return `You can enter a ${kind} rate value between 0 and 100!`;
}

/** SPEC §8: the tax hint is appended only when both tax type and code were filled. */
export function billingSaveFailedMessage(taxFilled: boolean): string {
  return taxFilled
    ? `${MESSAGES.billing.saveFailed}${MESSAGES.billing.saveFailedTaxHint}`
    : MESSAGES.billing.saveFailed;
}

import { describe, expect, it } from 'vitest';
import { MIN_LENGTHS } from './constants.js';
import { billingSaveFailedMessage, MESSAGES, rateRangeMessage } from './messages.js';

describe('messages are SPEC wording, typos included', () => {
  it.each([
    [MESSAGES.auth.emailRequired, 'Email address is required.'],
    [MESSAGES.auth.emailInvalid, 'Incorect email address.'],
    [MESSAGES.auth.passwordRequired, 'Password is required.'],
    [MESSAGES.auth.passwordMin, 'Password must be at least 6 characters long.'],
    [MESSAGES.auth.confirmPasswordRequired, 'Confirm password is required.'],
    [MESSAGES.auth.confirmPasswordMatch, 'Confirm password must match.'],
    [MESSAGES.auth.loginFailed, 'Failed login!'],
    [MESSAGES.auth.registerSuccess, 'Register successfully!Go to login page!'],
    [MESSAGES.auth.registerFailed, 'Failed register!'],
    [MESSAGES.auth.forgottenPasswordSuccess, 'Email sent successfully!'],
    [MESSAGES.auth.forgottenPasswordFailed, 'Email sent unsuccessfully!'],
    [MESSAGES.auth.resetPasswordSuccess, 'Password changed successfully!Go to login page!'],
    [MESSAGES.auth.resetPasswordFailed, 'Failed change password!'],
    [MESSAGES.emailValidation.heading, 'Email address validation'],
    [
      MESSAGES.emailValidation.waiting,
      'We are validating your email address. If validation is successful you will be automatically redirected to your account.',
    ],
    [MESSAGES.emailValidation.patience, 'Please be patient ...'],
    [
      MESSAGES.emailValidation.failed,
      'Could not validate your email address. Maybe the link has expired. Please try again to login. If the error persists then contact us.',
    ],
    [MESSAGES.account.changeEmailSuccess, 'Email changed successfully!'],
    [MESSAGES.account.changePasswordSuccess, 'Password changed successfully!'],
    [MESSAGES.account.oldPasswordRequired, 'Old password is required.'],
    [MESSAGES.account.newPasswordRequired, 'New password is required.'],
    [MESSAGES.account.confirmNewPasswordRequired, 'Confirm new password is required.'],
    [MESSAGES.account.confirmNewPasswordMatch, 'Confirm new password must match.'],
    [MESSAGES.account.deleteConfirmRequired, "'DELETE' confirm is required."],
    [MESSAGES.account.deleteConfirmMatch, "Value must match with 'DELETE'."],
    [MESSAGES.account.deleteFailed, 'Faield to delete account!'],
    [MESSAGES.account.emptyValue, '-'],
    [MESSAGES.billing.nameRequired, 'Name is required.'],
    [MESSAGES.billing.nameMin, 'Name must be at least 3 characters long.'],
    [MESSAGES.billing.phoneRequired, 'Phone number is required.'],
    [MESSAGES.billing.phoneMin, 'Phone number must be at least 10 characters long.'],
    [MESSAGES.billing.countryRequired, 'Country is required.'],
    [MESSAGES.billing.cityRequired, 'City is required.'],
    [MESSAGES.billing.line1Required, 'Address line 1 is required.'],
    [MESSAGES.billing.taxTypeRequired, 'Tax Type is required.'],
    [MESSAGES.billing.taxCodeRequired, 'Tax code is required.'],
    [MESSAGES.billing.taxCodePlaceholder, 'VAT code'],
    [MESSAGES.billing.saveSuccess, 'Billing settings saved successfully!'],
    [MESSAGES.billing.saveFailed, 'Failed save billing settings! '],
    [MESSAGES.billing.saveFailedTaxHint, 'You may have entered an incorrect tax code!'],
    [MESSAGES.contact.emailRequired, 'Email is required.'],
    [MESSAGES.contact.emailInvalid, 'Email is incorrect.'],
    [MESSAGES.contact.subjectRequired, 'Subject is required.'],
    [MESSAGES.contact.subjectMin, 'Subject must be at least 3 characters long.'],
    [MESSAGES.contact.messageMin, 'Message must be at least 10 characters long.'],
    [MESSAGES.contact.sendSuccess, 'Message sent successfully!'],
    [MESSAGES.contact.sendFailed, 'Failed to send this message!Try again!'],
    [MESSAGES.checkout.nameOnCardRequired, 'Name on card is required.'],
    [MESSAGES.checkout.nameOnCardMin, 'Name on card must be at least 10 characters long.'],
    [
      MESSAGES.checkout.paymentSuccess,
      'Payment successful! You will receive an invoice in the mail!',
    ],
    [MESSAGES.checkout.paymentFailed, 'Payment failed! Try again!'],
    [MESSAGES.editor.pauseRange, 'You can enter a pause break rate value between 0 and 9!'],
    [
      MESSAGES.editor.rateRange,
      'You can enter a speed (volume, pitch) rate value between 0 and 100!',
    ],
    [
      MESSAGES.editor.notEnoughCharacters,
      'You do not have enough characters to perform this operation. You can purchase more characters!',
    ],
    [MESSAGES.file.deleteConfirm, 'Are you sure you want to delete this file?'],
    [MESSAGES.file.historyTitle, 'File History'],
    [MESSAGES.file.historySubtitle, 'Here are your saved files!'],
    [MESSAGES.file.retentionNotice, 'Your files will be deleted after 30 days!'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('states the minimum lengths of SPEC §9', () => {
    expect(MESSAGES.auth.passwordMin).toContain(` ${MIN_LENGTHS.password} `);
    expect(MESSAGES.billing.nameMin).toContain(` ${MIN_LENGTHS.name} `);
    expect(MESSAGES.billing.phoneMin).toContain(` ${MIN_LENGTHS.phone} `);
    expect(MESSAGES.checkout.nameOnCardMin).toContain(` ${MIN_LENGTHS.nameOnCard} `);
    expect(MESSAGES.contact.subjectMin).toContain(` ${MIN_LENGTHS.contactSubject} `);
    expect(MESSAGES.contact.messageMin).toContain(` ${MIN_LENGTHS.contactMessage} `);
  });

  it('names the rate input in the range alert', () => {
    expect(rateRangeMessage('speed')).toBe('You can enter a speed rate value between 0 and 100!');
    expect(rateRangeMessage('volume')).toBe('You can enter a volume rate value between 0 and 100!');
    expect(rateRangeMessage('pitch')).toBe('You can enter a pitch rate value between 0 and 100!');
  });

  it('adds the tax hint to the billing failure only when tax details were filled', () => {
    expect(billingSaveFailedMessage(false)).toBe('Failed save billing settings! ');
    expect(billingSaveFailedMessage(true)).toBe(
      'Failed save billing settings! You may have entered an incorrect tax code!',
    );
  });
});

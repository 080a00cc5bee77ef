import type { Mail } from '../../lib/mail/mailer.js';
import { renderMail } from '../../lib/mail/template.js';

/** The account mails, in the words of a product people trust with their address. */
export function validationMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Confirm your email address for Parla',
    ...renderMail({
      title: 'Confirm your email address',
      intro: [
        'Hello,',
        'Please confirm that this is your email address so you can sign in to Parla and keep your converted audio safe.',
      ],
      action: { label: 'Confirm my email address', url: link },
      outro: [
        'The link works once and expires in 24 hours.',
        'If you did not create a Parla account or change its address, you can ignore this mail.',
      ],
    }),
  };
}

export function resetPasswordMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Reset your Parla password',
    ...renderMail({
      title: 'Reset your password',
      intro: [
        'Hello,',
        'Someone (hopefully you) asked to reset the password of your Parla account.',
      ],
      action: { label: 'Choose a new password', url: link },
      outro: [
        'The link works once and expires in 1 hour.',
        'If you did not ask for this, ignore this mail: your password stays as it is.',
      ],
    }),
  };
}

/**
 * Sent instead of a second account when someone registers an address that has one: register
 * answers as for a new address, so only the owner learns that the address is taken.
 */
export function existingAccountMail(to: string, links: { login: string; reset: string }): Mail {
  return {
    to,
    subject: 'Someone tried to create a Parla account with your address',
    ...renderMail({
      title: 'You already have a Parla account',
      intro: [
        'Hello,',
        'Someone (hopefully you) just tried to create a Parla account with this email address. You already have one, so nothing was changed.',
        `To sign in, log in at ${links.login}. If you forgot your password, you can choose a new one:`,
      ],
      action: { label: 'Reset my password', url: links.reset },
      outro: ['If this was not you, ignore this mail: your account stays as it is.'],
    }),
  };
}

/**
 * Sent to the owner of an address another account asked to move to: change_email answers as
 * for a free address, so only the owner learns that someone tried (decision 014, issue 28).
 */
export function addressClaimedMail(to: string, links: { login: string; reset: string }): Mail {
  return {
    to,
    subject: 'Someone tried to move a Parla account to your address',
    ...renderMail({
      title: 'Your address is already in use',
      intro: [
        'Hello,',
        'Someone signed in to another Parla account just asked to change its email address to this one. Your address belongs to your account, so nothing was changed.',
        `To sign in, log in at ${links.login}. If you forgot your password, you can choose a new one:`,
      ],
      action: { label: 'Reset my password', url: links.reset },
      outro: ['If this was you, keep using this account; if not, ignore this mail.'],
    }),
  };
}

import { describe, expect, it } from 'vitest';
import { messagesOf } from '../test/test-helpers.js';
import { ContactInputSchema } from './mail.js';

describe('ContactInputSchema', () => {
  it('accepts a message', () => {
    expect(
      ContactInputSchema.parse({
        name: ' Ann ',
        from: 'ann@example.com',
        subject: 'Hello',
        message: 'I like the voices.',
      }),
    ).toEqual({
      name: 'Ann',
      from: 'ann@example.com',
      subject: 'Hello',
      message: 'I like the voices.',
    });
  });

  it('uses the contact wording', () => {
    expect(messagesOf(ContactInputSchema, {})).toEqual({
      name: ['Name is required.'],
      from: ['Email is required.'],
      subject: ['Subject is required.'],
      message: ['Message is required.'],
    });
    expect(
      messagesOf(ContactInputSchema, {
        name: 'An',
        from: 'ann',
        subject: 'Hi',
        message: 'Too short',
      }),
    ).toEqual({
      name: ['Name must be at least 3 characters long.'],
      from: ['Email is incorrect.'],
      subject: ['Subject must be at least 3 characters long.'],
      message: ['Message must be at least 10 characters long.'],
    });
  });
});

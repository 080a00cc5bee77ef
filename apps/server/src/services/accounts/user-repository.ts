import { randomUUID } from 'node:crypto';
import type { InvoiceInfoInput, PlanPeriod, PlanType, Profile, Role } from '@parla/contract';
import type { Db } from '../../db/database.js';
import type { User } from '../../db/schema.js';
import type { PlanCatalogue, PlanTerms } from '../plans/plan-catalogue.js';
import { recordTerms, termsOfUser } from '../plans/plan-store.js';

/** FREE follows the plan's terms now (nothing was paid); any other plan keeps these. */
const planTermsColumn = (type: PlanType, terms: PlanTerms) =>
  type === 'FREE' ? null : recordTerms(terms);

export interface NewAccount {
  email: string;
  passwordHash: string;
  plan?: PlanType;
  /** The plan's terms now (the installation's catalogue): the allowance the account starts with. */
  terms: PlanTerms;
  emailValidated?: boolean;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function createUserRepository(db: Db) {
  const byId = (id: string) =>
    db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

  return {
    findById: byId,

    findByEmail: (email: string) =>
      db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', normaliseEmail(email))
        .executeTakeFirst(),

    /**
     * Sets a new password and raises the token version, so every token issued before stops
     * working. `validateEmail` marks the address validated when it is still the account's.
     */
    async setPassword(id: string, passwordHash: string, options: { validateEmail?: string } = {}) {
      const now = new Date().toISOString();
      const user = await byId(id);
      if (!user) return undefined;
      const proven = options.validateEmail && normaliseEmail(options.validateEmail) === user.email;
      return db
        .updateTable('users')
        .set((eb) => ({
          password_hash: passwordHash,
          token_version: eb('token_version', '+', 1),
          updated_at: now,
          ...(proven && !user.email_validated_at && { email_validated_at: now }),
        }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    async updateInvoiceInfo(id: string, info: InvoiceInfoInput) {
      await db
        .updateTable('users')
        .set({
          name: info.name,
          phone: info.phone,
          address_country: info.address.country,
          address_state: info.address.state,
          address_city: info.address.city,
          address_line1: info.address.line1,
          address_line2: info.address.line2,
          address_postal_code: info.address.postal_code,
          tax_type: info.tax.type,
          tax_code: info.tax.code === null ? null : info.tax.code.replace(/\s+/g, '').toUpperCase(),
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Adds `characters` (negative: removes them) in one conditional statement, so a conversion
     * spending at the same time never sees the count go below zero. Undefined when the user is
     * missing or the count would go below zero.
     */
    addCharacters: (id: string, characters: number) =>
      db
        .updateTable('users')
        .set((eb) => ({
          count_characters: eb('count_characters', '+', characters),
          updated_at: new Date().toISOString(),
        }))
        .where('id', '=', id)
        .where((eb) => eb(eb('count_characters', '+', characters), '>=', 0))
        .returningAll()
        .executeTakeFirst(),

    /**
     * Gives the plan without a charge: its period, per-conversion limit and terms now (kept
     * through later changes of the plan, as a purchase's are) follow.
     */
    setPlan: (id: string, type: PlanType, terms: PlanTerms) =>
      db
        .updateTable('users')
        .set({
          plan_type: type,
          plan_period: type === 'FREE' ? 'none' : 'month',
          count_characters_per_convert: terms.count_characters_per_convert,
          plan_terms: planTermsColumn(type, terms),
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),

    /** Disables the account (`at` its date) or enables it again (null). */
    setDisabled: (id: string, at: string | null) =>
      db
        .updateTable('users')
        .set({ disabled_at: at, updated_at: at ?? new Date().toISOString() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),

    /** Removes the user; their keys (and, with the file feature, files) go with them. */
    async delete(id: string) {
      await db.deleteFrom('users').where('id', '=', id).execute();
    },

    /**
     * Marks `email` validated for the user, switching the account to it when it is a new
     * address (email change). Undefined when another account took the address meanwhile.
     */
    async validateEmail(id: string, email: string) {
      const now = new Date().toISOString();
      const address = normaliseEmail(email);
      const owner = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', address)
        .executeTakeFirst();
      if (owner && owner.id !== id) return undefined;
      return db
        .updateTable('users')
        .set({ email: address, email_validated_at: now, updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    async create(account: NewAccount): Promise<User> {
      return db
        .insertInto('users')
        .values(newUserRow(account))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The new user, or undefined when the address has an account (even one made meanwhile). */
    createUnlessTaken: (account: NewAccount): Promise<User | undefined> =>
      db
        .insertInto('users')
        .values(newUserRow(account))
        .onConflict((oc) => oc.column('email').doNothing())
        .returningAll()
        .executeTakeFirst(),
  };
}

function newUserRow(account: NewAccount) {
  const now = new Date().toISOString();
  const planType = account.plan ?? 'FREE';
  const { terms } = account;
  return {
    id: randomUUID(),
    email: normaliseEmail(account.email),
    password_hash: account.passwordHash,
    role: 'USER',
    email_validated_at: account.emailValidated ? now : null,
    token_version: 0,
    has_payment_method_added: 0,
    plan_type: planType,
    plan_period: planType === 'FREE' ? 'none' : 'month',
    count_characters: terms.count_characters,
    count_characters_per_convert: terms.count_characters_per_convert,
    count_characters_added: 0,
    plan_terms: planTermsColumn(planType, terms),
    created_at: now,
    updated_at: now,
  };
}

/** The user's billing details (SPEC §3 Invoice info), as the profile and invoices show them. */
export function billingOf(user: User) {
  return {
    name: user.name,
    phone: user.phone,
    address: {
      country: user.address_country,
      state: user.address_state,
      city: user.address_city,
      line1: user.address_line1,
      line2: user.address_line2,
      postal_code: user.address_postal_code,
    },
    tax: { type: user.tax_type, code: user.tax_code },
  };
}

/** The user's plan and characters, as the profile and the console show them. */
export function planOf(user: User) {
  return {
    type: user.plan_type as PlanType,
    period: user.plan_period as PlanPeriod,
    count_characters: user.count_characters,
    count_characters_per_convert: user.count_characters_per_convert,
    count_characters_added: user.count_characters_added,
  };
}

/** What the profile says of the terms the user's plan was bought with. */
const boughtOf = (terms: PlanTerms) => ({
  count_characters_allowance: terms.count_characters,
  engines: terms.engines,
});

/** SPEC §3 Profile, built from the stored user and the plans' terms now (FREE follows them). */
export function toProfile(user: User, catalogue: PlanCatalogue): Profile {
  return {
    user: {
      email: user.email,
      ...billingOf(user),
      role: user.role as Role,
      card:
        user.card_brand && user.card_last4 && user.card_exp_month && user.card_exp_year
          ? {
              brand: user.card_brand,
              last4: user.card_last4,
              exp_month: user.card_exp_month,
              exp_year: user.card_exp_year,
              name: user.card_name,
            }
          : null,
      metadata: { has_payment_method_added: user.has_payment_method_added === 1 },
    },
    plan: { ...planOf(user), ...boughtOf(termsOfUser(user, catalogue)) },
  };
}

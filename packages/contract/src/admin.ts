import * as z from 'zod/mini';
import { PLAN_PERIODS, PLAN_TYPES, ROLES } from './constants.js';
import { DateTimeSchema, KeySchema, noNul, oneOf } from './fields.js';

// The operator's console (issue 31, docs/api.md "Operator console API", decision 044) ---------
//
// Every route needs a login token of a user whose role is ADMIN, checked on every request;
// anonymous calls and disabled accounts are answered 401, USER accounts and API keys (even an
// administrator's) 403.
//
//   GET    /api/admin/users?query=&page=&per_page=   AdminUserListSchema (search by email)
//   GET    /api/admin/users/{id}                     AdminUserDetailSchema
//   POST   /api/admin/users/{id}/validation-mail     MessageResponseSchema (mails a new link)
//   POST   /api/admin/users/{id}/characters          AdminCharactersInputSchema → AdminUserSchema
//   PUT    /api/admin/users/{id}/plan                AdminPlanInputSchema → AdminUserSchema
//   PUT    /api/admin/users/{id}/role                AdminRoleInputSchema → AdminUserSchema
//   POST   /api/admin/users/{id}/disable             AdminUserSchema
//   POST   /api/admin/users/{id}/enable              AdminUserSchema
//   DELETE /api/admin/users/{id}                     MessageResponseSchema
//   GET    /api/admin/messages?status=&page=&per_page=  AdminContactMessageListSchema
//   PUT    /api/admin/messages/{id}                  AdminMessageStatusInputSchema → message
//   GET    /api/admin/audit?page=&per_page=          AdminAuditListSchema (newest first)

/** Every answer of the console's calls that a test or a screen compares word for word. */
export const ADMIN_MESSAGES = {
  notAdmin: 'Only administrators can use the console.',
  apiKey: 'An API key cannot use the console: sign in on the website as an administrator.',
  userNotFound: 'There is no user with this id.',
  messageNotFound: 'There is no contact message with this id.',
  lastAdmin:
    'This is the last administrator: make another account an administrator first (npx parla admin grant EMAIL).',
  belowZero: (left: number) =>
    `characters: the user has ${left} characters left; removing more would go below zero.`,
  charactersRequired: 'characters must be a whole number other than zero (negative removes).',
  charactersTooLarge: 'characters must be at most 1,000,000,000 either way.',
  reasonRequired: 'reason is required: say why, it is kept in the audit log.',
  reasonTooLong: 'reason is at most 500 characters.',
  alreadyValidated: 'This user already validated their email address.',
  validationSent: (email: string) => `A new validation link was mailed to ${email}.`,
  deleted: (email: string) => `The account ${email} and everything saved in it are deleted.`,
  queryTooLong: 'query is at most 200 characters.',
  page: 'page must be a whole number from 1.',
  perPage: 'per_page must be a whole number from 1 to 100.',
} as const;

/** A page of a list: 1-based, at most 100 a page (default 50). */
export const PAGE_SIZE = { default: 50, max: 100 } as const;

const pageQuery = {
  page: z._default(
    z.coerce
      .number({ error: ADMIN_MESSAGES.page })
      .check(z.int({ error: ADMIN_MESSAGES.page }), z.minimum(1, { error: ADMIN_MESSAGES.page })),
    1,
  ),
  per_page: z._default(
    z.coerce
      .number({ error: ADMIN_MESSAGES.perPage })
      .check(
        z.int({ error: ADMIN_MESSAGES.perPage }),
        z.minimum(1, { error: ADMIN_MESSAGES.perPage }),
        z.maximum(PAGE_SIZE.max, { error: ADMIN_MESSAGES.perPage }),
      ),
    PAGE_SIZE.default,
  ),
};
export const AdminPageQuerySchema = z.object(pageQuery);
export type AdminPageQuery = z.infer<typeof AdminPageQuerySchema>;

const pageOf = <T extends z.ZodMiniType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().check(z.int(), z.nonnegative()),
    page: z.number(),
    per_page: z.number(),
  });

export const AdminUserParamsSchema = z.object({ id: KeySchema });
export const AdminMessageParamsSchema = z.object({ id: KeySchema });

// Users ---------------------------------------------------------------------------------------

export const AdminUserQuerySchema = z.object({
  /** Part of an email address (case does not matter); empty lists every user. */
  query: z._default(
    z.string().check(z.trim(), z.maxLength(200, { error: ADMIN_MESSAGES.queryTooLong }), noNul),
    '',
  ),
  ...pageQuery,
});
export type AdminUserQuery = z.infer<typeof AdminUserQuerySchema>;

/** A user as the console lists them. */
export const AdminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  email_validated: z.boolean(),
  /** When an administrator disabled the account; null when it may sign in. */
  disabled_date: z.nullable(DateTimeSchema),
  plan: z.object({
    type: z.enum(PLAN_TYPES),
    period: z.enum(PLAN_PERIODS),
    count_characters: z.number(),
    count_characters_per_convert: z.number(),
    count_characters_added: z.number(),
  }),
  created_date: DateTimeSchema,
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const AdminUserListSchema = pageOf(AdminUserSchema);
export type AdminUserList = z.infer<typeof AdminUserListSchema>;

/** Everything the console shows of one user; API keys by prefix only, never a key. */
export const AdminUserDetailSchema = z.object({
  user: AdminUserSchema,
  /**
   * Characters converted per day over the last 30 days: the usage log's conversions and jobs
   * that succeeded (it outlives the audio, which expires).
   */
  usage: z.array(z.object({ day: z.string(), characters: z.number(), conversions: z.number() })),
  /** The saved files: how many, their bytes, and the newest (20). */
  files: z.object({
    count: z.number(),
    bytes: z.number(),
    recent: z.array(
      z.object({
        id: z.string(),
        voice: z.string(),
        audio_format: z.string(),
        /** Seconds of audio. */
        length: z.number(),
        /** Bytes. */
        size: z.number(),
        created_date: DateTimeSchema,
      }),
    ),
  }),
  jobs: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.string(),
      characters: z.number(),
      created_date: DateTimeSchema,
    }),
  ),
  api_keys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      prefix: z.string(),
      created_date: DateTimeSchema,
      last_used_date: z.nullable(DateTimeSchema),
    }),
  ),
  payments: z.array(
    z.object({
      id: z.string(),
      plan_type: z.string(),
      amount_cents: z.number(),
      currency: z.string(),
      status: z.string(),
      provider: z.string(),
      provider_payment_id: z.nullable(z.string()),
      created_date: DateTimeSchema,
    }),
  ),
  sign_ins: z.array(
    z.object({ ip: z.string(), user_agent: z.nullable(z.string()), date: DateTimeSchema }),
  ),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetailSchema>;

/** The most characters one grant or removal may move. */
export const ADMIN_CHARACTER_LIMIT = 1_000_000_000;

export const AdminReasonSchema = z
  .string({ error: ADMIN_MESSAGES.reasonRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: ADMIN_MESSAGES.reasonRequired }),
    z.maxLength(500, { error: ADMIN_MESSAGES.reasonTooLong }),
    noNul,
  );

/** POST /api/admin/users/{id}/characters: a positive number grants, a negative one removes. */
export const AdminCharactersInputSchema = z.object({
  characters: z.number({ error: ADMIN_MESSAGES.charactersRequired }).check(
    z.int({ error: ADMIN_MESSAGES.charactersRequired }),
    z.refine((value) => value !== 0, { error: ADMIN_MESSAGES.charactersRequired }),
    z.refine((value) => Math.abs(value) <= ADMIN_CHARACTER_LIMIT, {
      error: ADMIN_MESSAGES.charactersTooLarge,
    }),
  ),
  reason: AdminReasonSchema,
});
export type AdminCharactersInput = z.infer<typeof AdminCharactersInputSchema>;

/**
 * PUT /api/admin/users/{id}/plan: the plan without a charge. The plan's per-conversion limit
 * and period follow; the characters left stay as they are (grant them with /characters).
 */
export const AdminPlanInputSchema = z.object({
  type: oneOf('type', PLAN_TYPES),
  reason: AdminReasonSchema,
});
export type AdminPlanInput = z.infer<typeof AdminPlanInputSchema>;

/** PUT /api/admin/users/{id}/role; the last administrator is never demoted. */
export const AdminRoleInputSchema = z.object({ role: oneOf('role', ROLES) });
export type AdminRoleInput = z.infer<typeof AdminRoleInputSchema>;

// Contact messages ----------------------------------------------------------------------------

export const CONTACT_MESSAGE_STATUSES = ['new', 'answered', 'archived'] as const;
export type ContactMessageStatus = (typeof CONTACT_MESSAGE_STATUSES)[number];

export const AdminMessageQuerySchema = z.object({
  status: z.optional(oneOf('status', CONTACT_MESSAGE_STATUSES)),
  ...pageQuery,
});
export type AdminMessageQuery = z.infer<typeof AdminMessageQuerySchema>;

export const AdminContactMessageSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  status: z.enum(CONTACT_MESSAGE_STATUSES),
  created_date: DateTimeSchema,
  updated_date: DateTimeSchema,
});
export type AdminContactMessage = z.infer<typeof AdminContactMessageSchema>;
export const AdminContactMessageListSchema = pageOf(AdminContactMessageSchema);
export type AdminContactMessageList = z.infer<typeof AdminContactMessageListSchema>;

export const AdminMessageStatusInputSchema = z.object({
  status: oneOf('status', CONTACT_MESSAGE_STATUSES),
});
export type AdminMessageStatusInput = z.infer<typeof AdminMessageStatusInputSchema>;

// Audit log -----------------------------------------------------------------------------------

/** What a console action did; the audit log's `action`. */
export const AUDIT_ACTIONS = [
  'user.characters',
  'user.plan',
  'user.role',
  'user.disable',
  'user.enable',
  'user.delete',
  'user.validation-mail',
  'message.status',
  'payment.refund',
  'voice.visibility',
  'language.settings',
  'voice.install',
  'voice.remove',
  'plan.update',
  'content.save',
  'content.publish',
  'content.restore',
  'content.image',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AdminAuditEntrySchema = z.object({
  id: z.string(),
  /** Who: the administrator's id and address then (null: the command line). */
  actor_id: z.nullable(z.string()),
  actor_email: z.nullable(z.string()),
  action: z.enum(AUDIT_ACTIONS),
  target_type: z.string(),
  target_id: z.string(),
  /** What the target was before and after, as JSON values (null: it did not exist). */
  before: z.unknown(),
  after: z.unknown(),
  reason: z.nullable(z.string()),
  date: DateTimeSchema,
});
export type AdminAuditEntry = z.infer<typeof AdminAuditEntrySchema>;
export const AdminAuditListSchema = pageOf(AdminAuditEntrySchema);
export type AdminAuditList = z.infer<typeof AdminAuditListSchema>;
